// An item's credit in the forms people paste it into, from what the server wrote (`item.credit`, docs/licences.md,
// "Credits"): the text and HTML as they come, Markdown read mechanically from the HTML, XML from the item's
// fields and the licence's name. The words are the server's only (TesseraCore/Licensing/LicenseNaming.swift),
// so a credit reads the same on screen, in a copy, in an export and in the CLI.

// The services a search reaches are named as the source; the person's own (library, uploads, web imports)
// are not (as `Attribution(item:)` names them).
const SOURCE_NAMES = { pixabay: 'Pixabay', flickr: 'Flickr', openverse: 'Openverse',
    wikimedia: 'Wikimedia Commons', itunes: 'iTunes' };

/** The person's own items: theirs to use, whatever rights they name. */
const OWN = ['local', 'upload'];

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text of HTML with its character references read: `&amp;` → `&`, `&#39;` → `'`. */
function decode(html) {
    return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name) => {
        if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}

/** Markdown text: the marks that start inline markup escaped, line breaks as spaces (as `Markup.markdown`). */
const markdownText = (text) => text.replace(/[\r\n]/g, ' ').replace(/[\\`*_[\]|<>~&]/g, '\\$&');

/** A link's destination with what would end it percent-encoded (as `Markup.markdownURL`). */
const markdownURL = (url) => url.replace(/[\r\n\t]/g, '')
    .replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The credit's paragraph (`credit.html`, one `<p>` of text and links) as Markdown: each link becomes
 * `[text](href)`, every other tag goes, and the text is escaped for Markdown. Read as a string, not parsed
 * into a page, so nothing in it runs; the server's own Markdown for the same item is the same string.
 */
export function creditMarkdown(html) {
    const body = String(html ?? '').trim().replace(/^<p\b[^>]*>/i, '').replace(/<\/p>$/i, '');
    const text = (part) => markdownText(decode(part.replace(/<[^>]*>/g, '')));
    const link = /<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi;
    let markdown = '';
    let last = 0;
    for (const match of body.matchAll(link)) {
        markdown += text(body.slice(last, match.index));
        const href = decode(match[1]);
        markdown += isWebURL(href) ? `[${text(match[2])}](${markdownURL(href)})` : text(match[2]);
        last = match.index + match[0].length;
    }
    return markdown + text(body.slice(last));
}

const XML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const xmlEscape = (text) => String(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/**
 * Openverse's XML shape, as the server writes it: the title, the creator, the licence's id, name and deed
 * (`credit.licenseName`, `credit.deed`), the source's link.
 */
export function creditXML(item) {
    const element = (name, text, url, id) => {
        const idAttribute = id ? ` id="${xmlEscape(id)}"` : '';
        const urlAttribute = isWebURL(url) ? ` url="${xmlEscape(url)}"` : '';
        return `  <${name}${idAttribute}${urlAttribute}>${xmlEscape(text)}</${name}>`;
    };
    const title = (item?.title ?? '').trim() || 'Untitled';
    const creator = (item?.creator?.name ?? '').trim();
    const lines = ['<attribution>', element('title', title)];
    if (creator) lines.push(element('creator', creator, item.creator.url));
    lines.push(element('license', item?.credit?.licenseName ?? 'Licence unknown', item?.credit?.deed,
        item?.license?.id || 'unknown'));
    const source = SOURCE_NAMES[item?.source] ?? (item?.pageURL || null);
    if (source) lines.push(element('source', source, item.pageURL));
    lines.push('</attribution>');
    return lines.join('\n');
}

/** Only http(s) addresses become links: a `javascript:` URL from a source stays text. */
export function isWebURL(url) {
    try {
        return ['http:', 'https:'].includes(new URL(url).protocol);
    } catch {
        return false;
    }
}

/**
 * Whether the item's licence lets a person reuse it, and so whether Download and "Copy attribution" are
 * offered: the server's `credit.reusable` (every Creative Commons family, CC0, the public-domain marks,
 * Pixabay's licence, the GFDL), and the person's own items. An item without `credit` (an answer cached
 * before it) is read from its normalised licence id.
 */
export function reuseAllowed(item) {
    if (OWN.includes(item?.source)) return true;
    if (typeof item?.credit?.reusable === 'boolean') return item.credit.reusable;
    const id = item?.license?.id;
    return Boolean(id) && id !== 'unknown' && id !== 'all-rights-reserved';
}

/**
 * Whether a gallery keeps the item only for reference (`restricted` in docs/licences.md): its licence allows
 * no sharing of copies, and it is not the person's own. Unknown (no `credit`) counts as not restricted here:
 * the server decides, and the web app only asks before adding.
 */
export function isRestricted(item) {
    return !OWN.includes(item?.source) && item?.credit?.reusable === false;
}

const STORES = { song: 'View in Apple Music', album: 'View in Apple Music', app: 'View in the App Store',
    book: 'View in Apple Books', movie: 'View in Apple TV' };

/**
 * For an item whose licence forbids reuse but which a store sells (iTunes), the link to its store page in the
 * store's words, instead of Download: `{ url, label }`, or null.
 */
export function storeLink(item) {
    if (reuseAllowed(item) || item?.source !== 'itunes' || !isWebURL(item.pageURL)) return null;
    return { url: item.pageURL, label: STORES[item.kind] ?? 'View in the iTunes Store' };
}
