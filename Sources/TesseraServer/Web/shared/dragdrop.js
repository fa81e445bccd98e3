// Drag and drop, the parts the gallery and the results' side panel share: what a drop carries, and where
// between the tiles of a grid it lands.
//
// While a drag is over the page the browser shows only the *types* of its data (reading it is allowed on
// `drop` alone), so `accepts` decides from the types and `readDrop` reads the data on the drop.

/** A search result dragged from a result tile (this tab or another): the item as JSON. */
export const ITEM_TYPE = 'application/x-tessera-item';
/** A gallery item dragged within its gallery: its id. */
export const GALLERY_ITEM_TYPE = 'application/x-tessera-gallery-item';

/** Whether a drag carries something a gallery can take: a result, files, a link or an image. */
export function accepts(dataTransfer) {
    const types = [...(dataTransfer?.types ?? [])];
    return [ITEM_TYPE, 'Files', 'text/uri-list', 'text/html', 'text/plain'].some((type) => types.includes(type));
}

export const isInternalMove = (dataTransfer) => [...(dataTransfer?.types ?? [])].includes(GALLERY_ITEM_TYPE);

/**
 * What a drop adds, as API sources: `[{item}]`, one `{file}` per image file, or `[{url}]`. Files that are
 * plainly not images come back in `refused` (by name), so nothing is uploaded only to be turned down.
 */
export function readDrop(dataTransfer) {
    const json = dataTransfer.getData(ITEM_TYPE);
    if (json) {
        try {
            return { adds: [{ item: JSON.parse(json) }], refused: [] };
        } catch { /* not ours after all: read it as a link below */ }
    }
    const files = [...(dataTransfer.files ?? [])];
    if (files.length) {
        // HEIC and AVIF files often come with no type at all: the server checks their bytes.
        const images = files.filter((file) => !file.type || file.type.startsWith('image/'));
        return {
            adds: images.map((file) => ({ file })),
            refused: files.filter((file) => !images.includes(file)).map((f) => f.name),
        };
    }
    // An image dragged from a page carries its own address in the HTML; the uri-list may be the link around it.
    const source = imageSource(dataTransfer.getData('text/html')) ?? firstURL(dataTransfer.getData('text/uri-list'))
        ?? firstURL(dataTransfer.getData('text/plain'));
    if (!source) return { adds: [], refused: [] };
    if (source.startsWith('data:')) {
        const file = dataURLFile(source);
        return file ? { adds: [{ file }], refused: [] } : { adds: [], refused: ['the dropped image'] };
    }
    return { adds: [{ url: source }], refused: [] };
}

/** The first http(s) URL of a uri-list or plain text (comment lines start with `#`). */
export function firstURL(text) {
    for (const line of (text ?? '').split(/\r?\n/)) {
        const candidate = line.trim();
        if (!candidate || candidate.startsWith('#')) continue;
        return isWebURL(candidate) ? candidate : null;
    }
    return null;
}

function isWebURL(text) {
    try {
        const url = new URL(text);
        return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
        return false;
    }
}

/**
 * The `src` of the first image in dragged HTML. DOMParser makes an inert document: nothing in it runs or
 * loads, and nothing from it is put into the page, only the one attribute is read.
 */
function imageSource(html) {
    if (!html) return null;
    const src = new DOMParser().parseFromString(html, 'text/html').querySelector('img[src]')?.getAttribute('src');
    if (!src) return null;
    if (/^data:image\//i.test(src)) return src;
    return isWebURL(src) ? src : null;
}

/** An image dragged as a `data:` URL (search engines' thumbnails are) becomes a file to upload. */
function dataURLFile(url) {
    const match = url.match(/^data:(image\/[\w.+-]+)?(;base64)?,(.*)$/is);
    if (!match) return null;
    try {
        const text = match[2] ? atob(match[3]) : decodeURIComponent(match[3]);
        const bytes = Uint8Array.from(text, (character) => character.charCodeAt(0));
        const type = match[1] ?? 'image/png';
        return new File([bytes], `dropped.${type.split('/')[1].replace('+xml', '')}`, { type });
    } catch {
        return null;
    }
}

// MARK: - Where a drop lands

/**
 * The insertion slot (0…tiles.length) nearest to the point: before a tile when the point is on its left
 * half, after it when on its right half. Rows are found by the tiles' tops, so it works at any column count.
 */
export function slotAt(tiles, x, y) {
    if (tiles.length === 0) return 0;
    const rects = tiles.map((tile) => tile.getBoundingClientRect());
    // The row under the point, or the nearest row above or below it.
    let best = 0;
    let bestDistance = Infinity;
    rects.forEach((rect, index) => {
        const dy = y < rect.top ? rect.top - y : y > rect.bottom ? y - rect.bottom : 0;
        const dx = x < rect.left ? rect.left - x : x > rect.right ? x - rect.right : 0;
        const distance = dy * 10_000 + dx; // rows first, then columns
        if (distance < bestDistance) {
            bestDistance = distance;
            best = index;
        }
    });
    const rect = rects[best];
    return x < rect.left + rect.width / 2 ? best : best + 1;
}

/**
 * Puts the insertion marker (a bar, absolutely placed in `container`) between the tiles at `slot`: on
 * the left edge of the tile after it, or on the right edge of the last tile of a row.
 */
export function placeMarker(marker, container, tiles, slot) {
    const box = container.getBoundingClientRect();
    let left;
    let rect;
    if (tiles.length === 0) {
        marker.hidden = true;
        return;
    }
    const gap = tiles.length > 1 ? Math.max(0, gapBetween(tiles)) : 8;
    if (slot < tiles.length) {
        rect = tiles[slot].getBoundingClientRect();
        left = rect.left - gap / 2;
    } else {
        rect = tiles[tiles.length - 1].getBoundingClientRect();
        left = rect.right + gap / 2;
    }
    marker.style.left = `${left - box.left + container.scrollLeft}px`;
    marker.style.top = `${rect.top - box.top + container.scrollTop}px`;
    marker.style.height = `${rect.height}px`;
    marker.hidden = false;
}

function gapBetween(tiles) {
    const [a, b] = [tiles[0].getBoundingClientRect(), tiles[1].getBoundingClientRect()];
    return Math.abs(b.top - a.top) < 2 ? b.left - a.right : 6;
}
