// A gallery's tiles: one per item, in the user's order, and placeholders for items on their way. Indices
// count items only, as the API's do; a placeholder sits where its item was dropped.
import { h } from '../shared/dom.js';
import { galleryURL } from '../shared/routes.js';
import { tile } from '../shared/tiles.js';
import { icon } from '../shared/icons.js';

/** A gallery item as the detail view and tiles show it: the source's item with the stored copy's images. */
export function storedItem(galleryItem) {
    const { item, image } = galleryItem;
    return {
        ...item,
        thumbnail: image?.thumbnail ?? item.thumbnail,
        preview: image?.preview ?? item.preview,
        full: image?.original ?? item.full,
    };
}

/** The result tile, linking to the item in its gallery, with a "⋯" button for the item's menu. */
export function galleryTile(galleryItem, galleryID, sourceTitle) {
    const item = storedItem(galleryItem);
    const element = tile(item, sourceTitle, {
        href: galleryURL(galleryID, galleryItem.id), link: { 'data-gallery-item': galleryItem.id }, id: galleryItem.id,
    });
    element.append(h('button', {
        type: 'button', class: 'tile-menu', 'aria-label': `Actions for ${item.title}`, 'aria-haspopup': 'menu',
        'aria-expanded': 'false', 'aria-controls': 'item-menu',
    }, icon('more')));
    return element;
}

export function placeholderTile(text) {
    return h('li', { class: 'tile pending', role: 'listitem', 'aria-busy': 'true', 'aria-label': `Adding ${text}` },
        h('span', { class: 'pending-box' }, h('span', { class: 'spinner', 'aria-hidden': 'true' })));
}

export const itemTiles = (grid) => [...grid.querySelectorAll('.tile:not(.pending)')];

export const itemTile = (grid, id) => grid.querySelector(`.tile[data-id="${CSS.escape(id)}"]:not(.pending)`);

export const indexOf = (grid, id) => itemTiles(grid).findIndex((element) => element.dataset.id === id);

/** How many items come before `node` (a placeholder): the index its item gets. */
export const itemsBefore = (grid, node) => {
    const children = [...grid.children];
    return children.slice(0, children.indexOf(node)).filter((child) => !child.classList.contains('pending')).length;
};

/** Puts `element` where it is the `index`-th item. */
export function place(grid, element, index) {
    const others = itemTiles(grid).filter((other) => other !== element);
    grid.insertBefore(element, others[index] ?? null);
}

/**
 * Shows exactly `items`, in order, reusing the tiles already there (their images stay loaded) and keeping
 * placeholders where they are and the focus where it was.
 */
export function showItems(grid, items, makeTile) {
    const focused = document.activeElement;
    const existing = new Map(itemTiles(grid).map((element) => [element.dataset.id, element]));
    const pending = [...grid.children]
        .map((child, index) => [child, index])
        .filter(([child]) => child.classList.contains('pending'));
    grid.replaceChildren(...items.map((item) => existing.get(item.id) ?? makeTile(item)));
    for (const [child, index] of pending) grid.insertBefore(child, grid.children[index] ?? null);
    if (focused && focused !== document.activeElement && grid.contains(focused)) focused.focus({ preventScroll: true });
}
