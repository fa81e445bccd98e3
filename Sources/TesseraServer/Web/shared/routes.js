// Every state of the app is an address: `/`, `/search?q=&scope=&tag=` (and the filters, filters.js),
// `/item/{source}/{id}`, `/galleries`, `/galleries/{id}` and `/galleries/{id}?item={itemId}` (one of its
// items in the detail view). This module reads and writes those addresses and nothing else, so it runs
// without a browser (Tests/WebUnit); router.js follows them in the address bar.
import { filterEntries, readFilters } from './filters.js';

/** The route an absolute address (a `URL` or its text) names; anything the app does not know is home. */
export function routeOf(address) {
    const { pathname, searchParams } = new URL(address);
    const itemMatch = pathname.match(/^\/item\/([^/]+)\/(.+)$/);
    if (itemMatch) {
        return { view: 'item', source: decodeURIComponent(itemMatch[1]), id: decodeURIComponent(itemMatch[2]) };
    }
    if (pathname === '/galleries' || pathname === '/galleries/') return { view: 'galleries' };
    const galleryMatch = pathname.match(/^\/galleries\/([^/]+)\/?$/);
    if (galleryMatch) {
        return { view: 'gallery', id: decodeURIComponent(galleryMatch[1]), item: searchParams.get('item') };
    }
    if (pathname === '/search') {
        return {
            view: 'search',
            q: searchParams.get('q') ?? '',
            scope: searchParams.get('scope') || 'all',
            filters: readFilters(searchParams),
            tag: searchParams.get('tag') ?? '',
        };
    }
    return { view: 'home' };
}

export function searchURL({ q, scope, filters, tag }) {
    const params = new URLSearchParams({ q, scope });
    for (const [name, value] of filterEntries(filters)) params.set(name, value);
    if (tag) params.set('tag', tag);
    // A licence list reads as the API documents it (`license=commercial,cc0`); a comma needs no escape here.
    return `/search?${params.toString().replaceAll('%2C', ',')}`;
}

/** The source's own id: `Item.id` without its `source:` prefix. */
export function nativeID(item) {
    return item.id.slice(item.id.indexOf(':') + 1);
}

export function itemURL(item) {
    return `/item/${encodeURIComponent(item.source)}/${encodeURIComponent(nativeID(item))}`;
}

export function galleryURL(id, itemID) {
    const path = `/galleries/${encodeURIComponent(id)}`;
    return itemID ? `${path}?${new URLSearchParams({ item: itemID })}` : path;
}
