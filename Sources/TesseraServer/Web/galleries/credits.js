// A gallery's Credits sheet: every item's credit as the server writes it (docs/licences.md, "Credits"), its
// licence and what the licence allows, the warnings, and the whole list copied as text, HTML or Markdown.
// Everything from the server goes in as text; the HTML is only ever copied, never put in the page.
import * as api from '../shared/api.js';
import { $, $$, h, toast, copyText, copyRich } from '../shared/dom.js';
import { isWebURL } from '../shared/attribution.js';

/** Licences that allow no reuse: their credit line says to ask, and yes/no flags would read as permission. */
const CLOSED = ['unknown', 'all-rights-reserved'];

/** Where the credits come from: a gallery's own routes; a public link's page passes its own (public/public.js). */
const galleryCredits = {
    credits: (id) => api.galleryCredits(id),
    document: (id, format) => api.galleryCreditsDocument(id, format),
};

export class CreditsSheet {
    constructor(source = galleryCredits) {
        this.source = source;
        this.sheet = $('#credits-sheet');
        this.credits = null;
        /** Counts openings: an answer for an earlier one must not fill this one. */
        this.visit = 0;
        this.sheet.addEventListener('click', (event) => {
            const button = event.target.closest('[data-copy]');
            if (button) this.copy(button.dataset.copy);
        });
    }

    /** Opens the sheet for gallery `id` (for a link: its slug) and fills it: the JSON and the text and Markdown
     * documents at once. */
    async open(id) {
        const visit = ++this.visit;
        this.credits = null;
        this.setCopying(false);
        $('#credits-status').textContent = 'Loading the credits…';
        $('#credits-warnings').hidden = true;
        $('#credits-list').replaceChildren();
        if (!this.sheet.open) this.sheet.showModal();
        try {
            const [credits, text, markdown] = await Promise.all([this.source.credits(id),
                this.source.document(id, 'text'), this.source.document(id, 'markdown')]);
            if (visit !== this.visit) return;
            this.credits = { ...credits, documents: { text, markdown } };
            this.render(credits);
        } catch (error) {
            if (visit !== this.visit || error.name === 'AbortError') return;
            $('#credits-status').textContent = error.message;
        }
    }

    render(credits) {
        const count = credits.items.length;
        $('#credits-status').textContent = count
            ? `${count === 1 ? 'One item' : `${count} items`}. Publish these credits with the pictures.`
            : 'This gallery is empty: nothing to credit yet.';
        const warnings = $('#credits-warnings');
        warnings.replaceChildren(...credits.warnings.map((warning) =>
            h('li', { class: 'credits-warning', 'data-code': warning.code }, warning.message)));
        warnings.hidden = credits.warnings.length === 0;
        $('#credits-list').replaceChildren(...credits.items.map((item) => this.entry(item)));
        this.setCopying(count > 0);
    }

    /**
     * One item: its credit line, then the licence's name linked to its deed and what it lets a person do, from
     * the entry's `credit` (the server's label) when it has one, else from its licence.
     */
    entry(item) {
        const license = item.license;
        const credit = item.credit;
        const name = credit?.licenseName ?? (license.id === 'unknown' ? 'Licence unknown' : license.name);
        const url = credit ? credit.deed : license.url;
        const licenseName = isWebURL(url)
            ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, name)
            : h('span', {}, name);
        // The label is "CC BY 2.0: you may reuse it with credit": its name part is the link.
        const reuse = credit?.label?.startsWith(`${name}: `) ? credit.label.slice(name.length) : '';
        const flag = (allowed, yes, no) =>
            h('span', { class: `credit-flag ${allowed ? 'yes' : 'no'}` }, allowed ? yes : no);
        const flags = CLOSED.includes(license.id) ? [] : [
            flag(license.allowsCommercialUse, 'Commercial use', 'No commercial use'),
            flag(license.allowsModification, 'Changes allowed', 'No changes'),
            flag(!license.requiresCredit, 'No credit required', 'Credit required'),
        ];
        return h('li', { class: 'credits-item', 'data-id': item.id, 'data-license': license.id },
            h('p', { class: 'credit-text' }, item.text),
            h('p', { class: 'credit-license' }, licenseName, reuse),
            flags.length ? h('p', { class: 'credit-flags' }, ...flags) : '');
    }

    setCopying(enabled) {
        for (const button of $$('#credits-sheet [data-copy]')) button.disabled = !enabled;
    }

    /** The items' HTML as one list, for pasting into a page or a rich-text editor. */
    htmlFragment() {
        return `<ol class="credits">\n${this.credits.items.map((item) => `<li>${item.html}</li>`).join('\n')}\n</ol>`;
    }

    async copy(format) {
        if (!this.credits) return;
        let copied;
        if (format === 'html') copied = await copyText(this.htmlFragment());
        else if (format === 'markdown') copied = await copyText(this.credits.documents.markdown);
        else copied = await copyRich(this.htmlFragment(), this.credits.documents.text);
        const said = { text: 'Credits copied', html: 'Credits copied as HTML', markdown: 'Credits copied as Markdown' };
        if (copied) toast(said[format]);
    }
}
