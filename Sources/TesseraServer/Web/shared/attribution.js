// Credit lines for an item (TASL: title, author, source, licence), as the server writes them
// (TesseraCore/Licensing/Attribution.swift, docs/licences.md "Credits"): the plain text is the same,
// character for character, which a browser test checks against the server's credits.
import { h } from './dom.js';

// The services a search reaches are named as the source; the person's own (library, uploads, web imports)
// are not.
const SOURCE_NAMES = { pixabay: 'Pixabay', flickr: 'Flickr', openverse: 'Openverse',
    wikimedia: 'Wikimedia Commons', itunes: 'iTunes' };

function parts(item) {
    const license = item?.license;
    let clause;
    if (!license?.id || license.id === 'unknown') {
        clause = { kind: 'unknown' };
    } else if (license.id === 'all-rights-reserved') {
        const name = (license.name ?? '').trim();
        clause = { kind: 'reserved', detail: !name || name.toLowerCase() === 'all rights reserved' ? null : name };
    } else {
        clause = { kind: 'named', verb: ['cc0', 'pdm'].includes(license.id) ? 'is marked with' : 'is licensed under',
            name: license.name, url: license.url || null };
    }
    const page = item?.pageURL || null;
    const sourceName = SOURCE_NAMES[item?.source] ?? null;
    return {
        title: (item?.title ?? '').trim() || 'Untitled',
        creator: (item?.creator?.name ?? '').trim() || null,
        creatorURL: item?.creator?.url ?? null,
        clause, page, sourceName, sourceLabel: sourceName ?? page,
    };
}

const reserved = (detail) => `. All rights reserved${detail ? ` (${detail})` : ''}.`;

/**
 * "“Title” by Author is licensed under CC BY 2.0. To view a copy of this license, visit URL. Source: Flickr,
 * https://…": an unknown licence is said to be unknown, never guessed.
 */
export function attributionText(item) {
    const p = parts(item);
    let text = `“${p.title}”`;
    if (p.creator) text += ` by ${p.creator}`;
    if (p.clause.kind === 'unknown') text += ' is under an unknown licence.';
    else if (p.clause.kind === 'reserved') text += reserved(p.clause.detail);
    else {
        text += ` ${p.clause.verb} ${p.clause.name}.`;
        if (p.clause.url) text += ` To view a copy of this license, visit ${p.clause.url}.`;
    }
    if (p.sourceName && p.page) text += ` Source: ${p.sourceName}, ${p.page}`;
    else if (p.sourceLabel) text += ` Source: ${p.sourceLabel}`;
    return text;
}

/** The HTML is built as elements and serialised, so every value from the source arrives escaped. */
export function attributionHTML(item) {
    const p = parts(item);
    const link = (url, text) => (isWebURL(url) ? h('a', { href: url, rel: 'noopener noreferrer' }, text) : text);
    const paragraph = h('p', { class: 'attribution' }, '“', link(p.page, p.title), '”');
    if (p.creator) paragraph.append(' by ', link(p.creatorURL, p.creator));
    if (p.clause.kind === 'unknown') paragraph.append(' is under an unknown licence.');
    else if (p.clause.kind === 'reserved') {
        paragraph.append(reserved(p.clause.detail));
    } else paragraph.append(` ${p.clause.verb} `, link(p.clause.url, p.clause.name), '.');
    if (p.sourceLabel) paragraph.append(' Source: ', link(p.page, p.sourceLabel));
    return paragraph.outerHTML;
}

const MARKDOWN_SPECIAL = /[\\`*_[\]|<>~&]/g;

/** Markdown with the marks that start inline markup escaped, and links only to web addresses. */
export function attributionMarkdown(item) {
    const p = parts(item);
    const escape = (text) => text.replace(/[\r\n]/g, ' ').replace(MARKDOWN_SPECIAL, '\\$&');
    const destination = (url) => url.replace(/[\r\n\t]/g, '').replace(/[ ()<>]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const link = (url, text) => (isWebURL(url) ? `[${escape(text)}](${destination(url)})` : escape(text));
    let text = `“${link(p.page, p.title)}”`;
    if (p.creator) text += ` by ${link(p.creatorURL, p.creator)}`;
    if (p.clause.kind === 'unknown') text += ' is under an unknown licence.';
    else if (p.clause.kind === 'reserved') {
        text += `. All rights reserved${p.clause.detail ? ` (${escape(p.clause.detail)})` : ''}.`;
    } else text += ` ${p.clause.verb} ${link(p.clause.url, p.clause.name)}.`;
    if (p.sourceLabel) text += ` Source: ${link(p.page, p.sourceLabel)}`;
    return text;
}

const XML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const xmlEscape = (text) => String(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** Openverse's XML shape: title, creator, the licence's name and link, the source's link (as the server's). */
export function attributionXML(item) {
    const p = parts(item);
    const element = (name, text, url, id) => {
        const idAttribute = id ? ` id="${xmlEscape(id)}"` : '';
        const urlAttribute = isWebURL(url) ? ` url="${xmlEscape(url)}"` : '';
        return `  <${name}${idAttribute}${urlAttribute}>${xmlEscape(text)}</${name}>`;
    };
    const lines = ['<attribution>', element('title', p.title)];
    if (p.creator) lines.push(element('creator', p.creator, p.creatorURL));
    const unknown = p.clause.kind === 'unknown';
    const license = item?.license;
    lines.push(element('license', unknown ? 'Unknown licence' : license.name, license?.url,
        unknown ? 'unknown' : license.id));
    if (p.sourceLabel) lines.push(element('source', p.sourceLabel, p.page));
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

const CC_TERMS = {
    nc: 'not for commercial purposes',
    nd: 'only as it is, unchanged',
    sa: 'changed versions under this same licence',
};

/**
 * What the licence lets a person do, in one sentence. Read from the licence's address (Creative Commons
 * codes such as `by-nc-sa`) or its name; a licence this does not know is named, not guessed at.
 */
export function licenseSentence(license) {
    const name = license?.name ?? '';
    const url = license?.url ?? '';
    if (!name && !url) return 'The service does not say how this may be used: ask the creator before reusing it.';
    if (/publicdomain\/zero/.test(url) || /\bCC0\b/i.test(name)) {
        return 'No rights reserved: use it for anything, commercial use too, with no credit required.';
    }
    if (/publicdomain\/mark/.test(url) || /public domain/i.test(name)) {
        return 'In the public domain: free of known copyright, so use it for anything.';
    }
    const code = url.match(/creativecommons\.org\/licenses\/([a-z-]+)\//)?.[1]
        ?? name.match(/\bCC (BY(?:-(?:NC|ND|SA))*)\b/i)?.[1]?.toLowerCase();
    if (code?.startsWith('by')) {
        const terms = code.split('-').slice(1).map((term) => CC_TERMS[term]).filter(Boolean);
        const rest = terms.length ? `, ${terms.join(', ')}` : ', commercial use and changes allowed';
        return `Free to use with credit to the creator${rest}.`;
    }
    if (/pixabay/i.test(name)) {
        return 'Free to use, commercial use too, with no credit required; not to be sold or shared as it is, ' +
            'or used to suggest endorsement.';
    }
    if (/all rights reserved/i.test(name)) return 'All rights reserved: ask the creator before reusing it.';
    if (isStoreTerms(name, url)) {
        return 'Shown to promote it in the store: its artwork and preview are not for reuse; the store sells it.';
    }
    return `Under “${name || url}”: read its terms before reusing it.`;
}

/**
 * Whether the item's licence lets a person reuse it, and so whether Download and "Copy attribution" are
 * offered: Creative Commons licences, CC0, the Public Domain Mark (and Flickr's public-domain kin) and the
 * Pixabay licence do; all rights reserved, a store's terms (iTunes artwork and previews) and anything
 * unknown do not (except the person's own photos). The one place this rule lives: when items carry
 * normalised licence facts (docs/licences.md), it reads those.
 */
export function reuseAllowed(item) {
    // The person's own (their library, an upload) is theirs to use, whatever rights it names.
    if (['local', 'upload'].includes(item?.source)) return true;
    const id = item?.license?.id;
    if (id && typeof item.license.allowsCommercialUse === 'boolean') {
        return id !== 'unknown' && id !== 'all-rights-reserved';
    }
    const name = item?.license?.name ?? '';
    const url = item?.license?.url ?? '';
    if (!name && !url) return false;
    if (/all rights reserved/i.test(name) || isStoreTerms(name, url)) return false;
    if (/creativecommons\.org\/(licenses\/by|publicdomain\/(zero|mark))/.test(url)) return true;
    if (/\bCC[ -]?(0|BY)\b/i.test(name) || /public domain|no known copyright restrictions/i.test(name)) return true;
    if (/government work/i.test(name)) return true;
    return /pixabay/i.test(name);
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

/** A store's terms (iTunes: Apple Media Services), under which artwork and previews only promote the store. */
function isStoreTerms(name, url) {
    return /apple\.com\/legal|courtesy of itunes/i.test(`${url} ${name}`);
}

/**
 * The server's three licence facts in plain words (docs/licences.md), e.g. "You may use this commercially.
 * You may change it. Credit required." An item without them (an older server) says nothing here.
 */
export function licenseFacts(license) {
    if (!license?.id || typeof license.allowsCommercialUse !== 'boolean') return '';
    if (license.id === 'unknown') return 'Licence unknown: do not reuse it without asking the creator.';
    if (license.id === 'all-rights-reserved') return 'All rights reserved: ask the creator before reusing it.';
    return [
        license.allowsCommercialUse ? 'You may use this commercially.' : 'Not for commercial use.',
        license.allowsModification ? 'You may change it.' : 'Do not change it.',
        license.requiresCredit ? 'Credit required.' : 'No credit required.',
    ].join(' ');
}
