// The detail view's side panel: first what a person may do with the item (its badge and the server's label),
// then creator, licence, size, the credit line on screen, tags as links that filter, and the metadata sheet
// without rows that say the same thing twice.
import { $, h, formatNumber } from '../shared/dom.js';
import { isWebURL } from '../shared/attribution.js';

const link = (url, text) =>
    (isWebURL(url) ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text) : text);

/** The largest image this server offers for the item (what Download and "View original" give). */
const largest = (item) => item.full ?? item.preview ?? item.thumbnail;

/** `1,280 × 853 px` and `1280x853` alike as `1280 853`, to compare sizes however a service writes them. */
const numbers = (text) => (text.replace(/[,.\u202f\u00a0']/g, '').match(/\d+/g) ?? []).join(' ');

const dimensions = (image) =>
    (image?.width && image?.height ? `${formatNumber(image.width)} × ${formatNumber(image.height)} px` : null);

/** Fills the panel for `item`. `tagURL(tag)` is where a tag leads (the results, filtered by it), if anywhere. */
export function renderInfo(item, { catalog, tagURL }) {
    // `credit` is the server's (docs/licences.md); an answer cached before it had one shows the service's name.
    const credit = item.credit;
    $('#detail-reuse').hidden = !credit?.label;
    $('#detail-badge').textContent = credit?.badge ?? '';
    $('#detail-badge').dataset.reusable = String(Boolean(credit?.reusable));
    $('#detail-reuse-label').textContent = credit?.label ?? '';
    $('#detail-creator').replaceChildren(item.creator?.name ? link(item.creator.url, item.creator.name) : 'unknown');
    const license = credit ? link(credit.deed, credit.licenseName) : item.license?.name;
    $('#detail-license').replaceChildren(license || 'not stated');
    $('#detail-size').textContent = [dimensions(largest(item)), catalog.sourceTitle(item.source)]
        .filter(Boolean).join(' · ');
    const page = $('#detail-page');
    page.hidden = !isWebURL(item.pageURL);
    page.textContent = `View on ${catalog.sourceTitle(item.source)}`;
    if (isWebURL(item.pageURL)) page.href = item.pageURL;
    $('#detail-credit').textContent = credit?.text ?? '';
    $('#detail-credit-block').hidden = !credit?.text;
    // Without `tagURL` (a public link's page, which has no search) tags are words, not links.
    $('#detail-tags').replaceChildren(...(item.tags ?? []).map((tag) => h('li', {}, tagURL
        ? h('a', { href: tagURL(tag), 'data-nav': true, 'aria-label': `Results tagged ${tag}` }, tag)
        : h('span', { class: 'tag-word' }, tag))));
}

export function clearInfo() {
    for (const id of ['#detail-creator', '#detail-license', '#detail-size', '#detail-page', '#detail-tags']) {
        $(id).replaceChildren();
    }
    $('#detail-reuse').hidden = true;
    $('#detail-credit').textContent = '';
    $('#detail-credit-block').hidden = true;
    $('#detail-copies').hidden = true;
}

// Rows the sheet has already, by label; a service's own row of the same name says it again.
const SHOWN = new Set(['title', 'creator', 'licence', 'license', 'service', 'kind', 'id', 'tags', 'size']);

/**
 * The metadata sheet's rows. "Size" is what this server offers; when the service also states an original
 * size that differs (Pixabay, Flickr and Openverse offer less than the original), the row says so.
 */
export function metadataRows(item, catalog) {
    const extra = (item.metadata ?? []).filter((entry) => !SHOWN.has(entry.label.toLowerCase()));
    const offered = dimensions(largest(item));
    const original = extra.find((entry) => entry.label.toLowerCase() === 'original size')?.value;
    const differs = offered && original && numbers(original) !== numbers(offered);
    return [
        ['Title', item.title],
        ['Creator', item.creator?.name],
        ['Licence', item.credit?.licenseName ?? item.license?.name],
        ['Service', catalog.sourceTitle(item.source)],
        ['Kind', item.kind],
        ['ID', item.id],
        [differs ? 'Size here' : 'Size', differs ? `${offered} (the largest ${catalog.sourceTitle(item.source)} ` +
            'lets others show; the original is on its page)' : offered],
        ['Tags', (item.tags ?? []).join(', ')],
        ...extra.map((entry) => [entry.label, entry.value]),
    ].filter(([, value]) => value);
}
