// The "Links" part of the Share dialog (the owner only): links that open the gallery without an account,
// to look at it (view) or to add images to it (drop); how often each was opened, copying and revoking
// them, and making a new one with an optional password, expiry and, for drop links, its own limits.
import * as api from '../shared/api.js';
import { $, h, toast, copyText, formatNumber } from '../shared/dom.js';
import { confirmAction } from '../shared/confirm.js';

const KINDS = { view: 'View link', drop: 'Drop link' };
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const times = (n) => (n === 1 ? 'once' : `${formatNumber(n)} times`);
const images = (n) => `${formatNumber(n)} ${n === 1 ? 'image' : 'images'}`;

/** `2026-11-30` as a local date (a date input's value). */
const localDay = (date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * What a link's visitors see of the gallery's restricted items (`restrictedCount`: all rights reserved or of
 * unknown licence, docs/licences.md), or null when it shows none: a view link, and a drop link that shows
 * the gallery's items.
 */
export function restrictedNote(link) {
    const count = link.restrictedCount ?? 0;
    if (count < 1 || (link.kind === 'drop' && !link.showItems)) return null;
    const pictures = count === 1 ? '1 picture is' : `${formatNumber(count)} pictures are`;
    return `${pictures} all rights reserved or of unknown licence: visitors see a card with the title, creator ` +
        'and a link to the source, not the picture.';
}

/** The link's facts, one short line each. */
export function linkFacts(link, now = new Date()) {
    const last = link.lastOpenedAt ? `, last ${dateTime.format(new Date(link.lastOpenedAt))}` : '';
    const facts = [
        link.opens > 0 ? `Opened ${times(link.opens)}${last}` : 'Not opened yet',
        link.hasPassword ? 'Password' : 'No password',
    ];
    if (link.expiresAt) {
        const expires = new Date(link.expiresAt);
        facts.push(expires <= now ? `Expired ${dateTime.format(expires)}` : `Expires ${dateTime.format(expires)}`);
    } else {
        facts.push('Never expires');
    }
    if (link.kind === 'drop') {
        facts.push(`${images(link.drops ?? 0)} added`, `At most ${formatNumber(link.perHour)} an hour`,
            link.showItems ? 'Shows the gallery’s items' : 'Shows only what each visitor adds');
    }
    return facts;
}

export class LinksSection {
    constructor() {
        this.element = $('#links');
        this.list = $('#links-list');
        this.form = $('#link-form');
        this.toggle = $('#links-new');
        this.message = $('#link-message');
        /** Counts openings: an answer for an earlier gallery must not fill this one. */
        this.visit = 0;
        this.toggle.addEventListener('click', () => this.showForm(this.form.hidden));
        this.form.addEventListener('change', () => this.showDropOptions());
        this.form.addEventListener('submit', (event) => {
            event.preventDefault();
            this.create();
        });
        $('#link-cancel').addEventListener('click', () => this.showForm(false));
        this.list.addEventListener('click', (event) => {
            const button = event.target.closest('button[data-action]');
            const row = button?.closest('[data-link]');
            if (!row) return;
            const link = this.links.find((one) => one.id === row.dataset.link);
            if (!link) return;
            if (button.dataset.action === 'copy') this.copy(link);
            else if (button.dataset.action === 'revoke') this.revoke(link);
        });
        this.links = [];
    }

    /** Shows the gallery's links to its owner; hides the section from anyone else. */
    async open(gallery) {
        const visit = ++this.visit;
        this.gallery = gallery;
        this.links = [];
        this.list.replaceChildren();
        this.showForm(false);
        this.element.hidden = gallery.role !== 'owner';
        if (this.element.hidden) return;
        this.list.append(h('li', { class: 'muted links-none' }, 'Loading the links…'));
        try {
            const links = await api.links(gallery.id);
            if (visit === this.visit) this.show(links);
        } catch (error) {
            if (visit !== this.visit) return;
            this.list.replaceChildren(h('li', { class: 'inline-message' }, error.message));
        }
    }

    show(links) {
        this.links = links;
        this.list.replaceChildren(...links.map((link) => this.row(link)));
        if (!links.length) this.list.append(h('li', { class: 'muted links-none' }, 'No links yet.'));
    }

    row(link) {
        const url = new URL(link.url, location.origin).href;
        const note = restrictedNote(link);
        const noteID = `link-restricted-${link.id}`;
        return h('li', { class: 'link-row', 'data-link': link.id, 'data-kind': link.kind },
            h('p', { class: 'link-head' },
                h('span', { class: 'link-kind' }, KINDS[link.kind] ?? link.kind),
                h('span', { class: 'link-url', title: url }, url)),
            h('ul', { class: 'link-facts', role: 'list' }, ...linkFacts(link).map((fact) => h('li', {}, fact))),
            note ? h('p', { class: 'link-restricted', id: noteID }, note) : null,
            h('p', { class: 'link-buttons' },
                // Focus lands on Copy link once a link is made: the note is read with it.
                h('button', { type: 'button', 'data-action': 'copy', 'aria-describedby': note ? noteID : null },
                    'Copy link'),
                h('button', {
                    type: 'button', class: 'danger', 'data-action': 'revoke',
                    'aria-label': `Revoke this ${KINDS[link.kind]?.toLowerCase() ?? 'link'}`,
                }, 'Revoke')));
    }

    showForm(shown) {
        this.form.hidden = !shown;
        this.toggle.hidden = shown;
        this.toggle.setAttribute('aria-expanded', String(shown));
        this.hideMessage();
        if (!shown) return;
        this.form.reset();
        $('#link-expiry').min = localDay(new Date());
        this.showDropOptions();
        this.form.querySelector('input[name="link-kind"]:checked')?.focus();
    }

    get kind() {
        return this.form.querySelector('input[name="link-kind"]:checked')?.value ?? 'view';
    }

    showDropOptions() {
        $('#link-drop-options').hidden = this.kind !== 'drop';
    }

    /** The request the form describes, or a sentence saying what to change. */
    request() {
        const request = { kind: this.kind };
        const password = $('#link-password').value;
        if (password) {
            // As the server counts: at least 8 characters, at most 72 bytes (bcrypt's limit).
            const short = [...password].length < 8;
            if (short || new TextEncoder().encode(password).length > 72) {
                return { problem: 'A password has 8 to 72 characters (or leave it empty).' };
            }
            request.password = password;
        }
        const expiry = $('#link-expiry').value;
        if (expiry) {
            // The link works until the end of the chosen day, in the owner's time zone.
            const end = new Date(`${expiry}T23:59:59`);
            if (Number.isNaN(end.getTime()) || end <= new Date()) return { problem: 'Pick a day from today on.' };
            request.expiresAt = end.toISOString();
        }
        if (request.kind === 'drop') {
            request.showItems = $('#link-show-items').checked;
            const perHour = Number($('#link-per-hour').value || 60);
            if (!Number.isInteger(perHour) || perHour < 1 || perHour > 1000) {
                return { problem: 'Images per hour is a whole number from 1 to 1,000.' };
            }
            request.perHour = perHour;
        }
        return { request };
    }

    async create() {
        const { request, problem } = this.request();
        if (problem) {
            this.showMessage(problem);
            return;
        }
        const submit = this.form.querySelector('button[type="submit"]');
        submit.disabled = true;
        try {
            const link = await api.createLink(this.gallery.id, request);
            this.show([link, ...this.links.filter((one) => one.id !== link.id)]);
            this.showForm(false);
            this.list.querySelector(`[data-link="${CSS.escape(link.id)}"] [data-action="copy"]`)?.focus();
            toast(`${KINDS[link.kind] ?? 'Link'} created`);
        } catch (error) {
            this.showMessage(error.message);
        } finally {
            submit.disabled = false;
        }
    }

    async copy(link) {
        if (await copyText(new URL(link.url, location.origin).href)) toast('Link copied');
    }

    async revoke(link) {
        const confirmed = await confirmAction({
            title: `Revoke this ${KINDS[link.kind]?.toLowerCase() ?? 'link'}?`,
            message: 'Whoever has it will find that it no longer exists. You cannot undo this (make a new one).',
            confirm: 'Revoke',
        });
        if (!confirmed) return;
        try {
            await api.revokeLink(link.id);
            this.show(this.links.filter((one) => one.id !== link.id));
            toast('Link revoked');
        } catch (error) {
            if (error.code === 'link_not_found') this.show(this.links.filter((one) => one.id !== link.id));
            toast(error.message);
        }
    }

    showMessage(text) {
        this.message.textContent = text;
        this.message.hidden = false;
    }

    hideMessage() {
        this.message.hidden = true;
    }
}
