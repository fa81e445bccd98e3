// The detail view's list of a picture's copies (search/groups.js): each with its service, its licence in plain words
// and its page, the most permissive first; choosing one shows that copy, so Save, Share and the credit use it.
import { $, h } from '../shared/dom.js';
import { isWebURL } from '../shared/attribution.js';

/**
 * Fills `#detail-copies` for `item` from `copies` (the representative first), or hides it when the picture
 * has no other copy here. `choose(copy)` shows another copy.
 */
export function renderCopies(item, copies, { catalog, choose }) {
    const section = $('#detail-copies');
    const list = $('#detail-copies-list');
    if (!copies || copies.length < 2 || !copies.some((copy) => copy.id === item.id)) {
        section.hidden = true;
        list.replaceChildren();
        return;
    }
    section.hidden = false;
    // "Most permissive" says something only when the licences differ; the server put the most permissive first.
    const differ = new Set(copies.map((copy) => copy.license?.id ?? 'unknown')).size > 1;
    list.replaceChildren(...copies.map((copy, index) => {
        const service = catalog.sourceTitle(copy.source);
        const current = copy.id === item.id;
        const words = copy.credit?.label ?? '';
        const choice = current
            ? h('span', { class: 'copy-current' }, 'Shown')
            : h('button', { type: 'button', class: 'copy-choose', 'aria-label': `Show the copy on ${service}` },
                'Show this copy');
        if (!current) choice.addEventListener('click', () => choose(copy));
        return h('li', { class: current ? 'copy current' : 'copy', 'data-copy': copy.id,
            'aria-current': current ? 'true' : null },
        h('span', { class: 'copy-service' }, service),
        index === 0 && differ ? h('span', { class: 'copy-best' }, 'Most permissive licence') : null,
        h('span', { class: 'copy-license' }, copy.credit?.licenseName ?? copy.license?.name ?? 'Licence not stated'),
        h('span', { class: 'copy-words' }, words),
        isWebURL(copy.pageURL)
            ? h('a', { href: copy.pageURL, target: '_blank', rel: 'noopener noreferrer' }, `Its page on ${service}`)
            : null,
        choice);
    }));
}
