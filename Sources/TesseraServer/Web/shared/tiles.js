// One result as a tile: a list item with one link, its image (alt = the title), its reuse badge and, for the
// list layout, the title, creator, source and size as text. The link's name is the title and what the
// licence lets a person do ("Sunset — CC BY 2.0: you may reuse it with credit"), from the server's `credit`.
import { h, setAttributes } from './dom.js';
import { itemURL } from './routes.js';

/** A tile's fixed parts, made once and cloned: a page draws a hundred tiles or more at once (docs/duplicates.md). */
let tileTemplate = null;

function blankTile() {
    tileTemplate ??= h('li', { class: 'tile', role: 'listitem' },
        h('a', {},
            h('span', { class: 'thumb' }),
            h('span', { class: 'row-text' }, h('span', { class: 'title' }), h('span', { class: 'meta' })),
            h('span', { class: 'badge', 'aria-hidden': 'true' })),
        h('span', { class: 'caption', 'aria-hidden': 'true' }, h('span', { class: 'caption-title' })));
    return tileTemplate.cloneNode(true);
}

/**
 * `options` let a gallery reuse the tile for its own items: another address (`href`), the stored copy's
 * thumbnail, the link's attributes and the tile's `data-id`; `eager` for a tile the window shows at once.
 */
export function tile(item, sourceTitle, options = {}) {
    const {
        href = itemURL(item), thumbnail = item.thumbnail, link = { 'data-item': item.id }, id = item.id,
        eager = false,
    } = options;
    // The first tiles of a section are in the window: asked for at once and first, not after layout.
    const loading = eager ? { loading: 'eager', fetchpriority: 'high' } : { loading: 'lazy' };
    const picture = thumbnail
        ? h('img', {
            src: thumbnail.url, alt: item.title, ...loading, decoding: 'async',
            width: thumbnail.width ?? 400, height: thumbnail.height ?? 400,
        })
        : h('span', { class: 'fallback' }, item.title);
    const size = item.full?.width && item.full?.height ? `${item.full.width} × ${item.full.height}` : null;
    const licenseName = item.credit?.licenseName ?? item.license?.name;
    const credit = [item.creator?.name, sourceTitle, licenseName].filter(Boolean).join(' · ');
    const meta = [credit, size].filter(Boolean).join(' · ');
    const element = blankTile();
    setAttributes(element, { 'data-id': id });
    const [anchor, caption] = element.children;
    setAttributes(anchor, { href, ...link, 'aria-label': item.credit?.label ? linkName(item) : null });
    const [thumb, text, badge] = anchor.children;
    // An answer cached before items carried `credit` has no badge to show: the tile goes without.
    if (item.credit?.badge) {
        badge.textContent = item.credit.badge;
        badge.dataset.reusable = String(Boolean(item.credit.reusable));
    } else {
        badge.remove();
    }
    thumb.append(picture);
    const [title, details] = text.children;
    title.textContent = item.title ?? '';
    details.textContent = meta;
    caption.firstChild.textContent = item.title ?? '';
    if (credit) caption.append(h('span', { class: 'caption-credit' }, credit));
    element.tags = (item.tags ?? []).map((tag) => tag.toLowerCase());
    return element;
}

/**
 * A tile link's accessible name: the title, what its licence lets a person do (`credit.label`), and `more`
 * ("also on Flickr") when something else is said on the tile.
 */
export function linkName(item, more = '') {
    const label = item.credit?.label;
    return [item.title ?? '', label ? ` — ${label}` : '', more ? `, ${more}` : ''].join('');
}

/**
 * How a result is drawn: photos in their own proportions (`ratio`, width over height, kept between 1:2 and
 * 5:2 so a panorama or a strip of film does not take a row alone), film and book covers as portraits, album
 * covers square, app icons as icons.
 */
export function shapeOf(item) {
    switch (item.kind) {
        case 'movie':
        case 'book':
            return { shape: 'cover', ratio: 2 / 3 };
        case 'album':
        case 'song':
            return { shape: 'square', ratio: 1 };
        case 'app':
            return { shape: 'icon', ratio: 1 };
        default: {
            const image = item.thumbnail ?? item.preview ?? item.full;
            const ratio = image?.width > 0 && image?.height > 0 ? image.width / image.height : 1;
            return { shape: 'photo', ratio: Math.min(2.5, Math.max(0.5, ratio)) };
        }
    }
}

/** Gives a tile its shape: `data-shape` and `--r`, its width over height, which the layouts read. */
export function applyShape(element, item) {
    const { shape, ratio } = shapeOf(item);
    element.dataset.shape = shape;
    element.style.setProperty('--r', ratio.toFixed(4));
}

/** Shows on a result's tile that galleries hold it (`names`, added to what it said before). */
export function markHeld(element, names) {
    if (!element) return;
    const all = [...new Set([...(element.heldIn ?? []), ...names])];
    element.heldIn = all;
    let badge = element.querySelector('.tile-held');
    if (!badge) {
        badge = h('span', { class: 'tile-held', role: 'img' }, '✓');
        element.append(badge);
    }
    const label = `In ${all.join(', ')}`;
    badge.setAttribute('aria-label', label);
    badge.title = label;
}

export function skeletonTiles(count) {
    return Array.from({ length: count }, () =>
        h('li', { class: 'tile skeleton', 'aria-hidden': 'true' }, h('a', { tabindex: '-1' })));
}

// Image error events do not bubble, but they can be caught on the way down: one listener for every tile
// instead of one per image. A picture shows as soon as it is drawn, without fading in: a fade of 0.2 s made
// every picture a layer of its own while it ran, and the compositor's work painted the 20th thumbnail of a
// search 12-16 ms later on the bench machine (docs/duplicates.md, "Return to 20 thumbnails painted").
export function watchImages(container) {
    container.addEventListener('error', (event) => {
        const image = event.target;
        if (!(image instanceof HTMLImageElement) || !image.closest('.tile')) return;
        image.replaceWith(h('span', { class: 'fallback' }, image.alt));
    }, true);
}
