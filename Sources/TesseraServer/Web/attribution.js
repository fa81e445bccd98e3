// Credit lines for an item, as Openverse writes them: plain text for anywhere, HTML with links for web pages.
import { h } from './dom.js';

export function attributionText(item) {
    const parts = [`“${item.title}”`];
    if (item.creator?.name) parts.push(`by ${item.creator.name}`);
    let text = parts.join(' ');
    if (item.license?.name) {
        text += ` is licensed under ${item.license.name}.`;
        if (item.license.url) text += ` To view a copy of this license, visit ${item.license.url}.`;
    } else {
        text += '.';
    }
    if (item.pageURL) text += ` Source: ${item.pageURL}`;
    return text;
}

/** The HTML is built as elements and serialised, so every value from the source arrives escaped. */
export function attributionHTML(item) {
    const link = (url, text) => (isWebURL(url) ? h('a', { href: url, rel: 'noopener noreferrer' }, text) : text);
    const paragraph = h('p', { class: 'attribution' }, '“', link(item.pageURL, item.title), '”');
    if (item.creator?.name) paragraph.append(' by ', link(item.creator.url, item.creator.name));
    if (item.license?.name) paragraph.append(' is licensed under ', link(item.license.url, item.license.name));
    paragraph.append('.');
    return paragraph.outerHTML;
}

/** Only http(s) addresses become links: a `javascript:` URL from a source stays text. */
export function isWebURL(url) {
    try {
        return ['http:', 'https:'].includes(new URL(url).protocol);
    } catch {
        return false;
    }
}
