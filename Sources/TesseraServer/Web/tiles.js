// One result as a tile: a list item with one link, its image (alt = the title) and, for the list layout,
// the title, creator, source and size as text.
import { h } from './dom.js';
import { itemURL } from './router.js';

/**
 * `options` let a gallery reuse the tile for its own items: another address (`href`), the stored copy's
 * thumbnail, the link's attributes and the tile's `data-id`.
 */
export function tile(item, sourceTitle, options = {}) {
    const {
        href = itemURL(item), thumbnail = item.thumbnail, link = { 'data-item': item.id }, id = item.id,
    } = options;
    const picture = thumbnail
        ? h('img', {
            src: thumbnail.url, alt: item.title, loading: 'lazy', decoding: 'async',
            width: thumbnail.width ?? 400, height: thumbnail.height ?? 400,
        })
        : h('span', { class: 'fallback' }, item.title);
    const size = item.full?.width && item.full?.height ? `${item.full.width} × ${item.full.height}` : null;
    const meta = [item.creator?.name, sourceTitle, size].filter(Boolean).join(' · ');
    const element = h('li', { class: 'tile', role: 'listitem', 'data-id': id },
        h('a', { href, ...link },
            h('span', { class: 'thumb' }, picture),
            h('span', { class: 'row-text' },
                h('span', { class: 'title' }, item.title),
                h('span', { class: 'meta' }, meta))),
        h('span', { class: 'caption', 'aria-hidden': 'true' }, item.title));
    element.tags = (item.tags ?? []).map((tag) => tag.toLowerCase());
    return element;
}

export function skeletonTiles(count) {
    return Array.from({ length: count }, () =>
        h('li', { class: 'tile skeleton', 'aria-hidden': 'true' }, h('a', { tabindex: '-1' })));
}

// Image load and error events do not bubble, but they can be caught on the way down: one listener for
// every tile instead of two per image.
export function watchImages(container) {
    container.addEventListener('load', (event) => {
        if (event.target instanceof HTMLImageElement) event.target.classList.add('loaded');
    }, true);
    container.addEventListener('error', (event) => {
        const image = event.target;
        if (!(image instanceof HTMLImageElement) || !image.closest('.tile')) return;
        image.replaceWith(h('span', { class: 'fallback' }, image.alt));
    }, true);
}
