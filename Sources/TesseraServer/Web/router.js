// Every state of the app is an address: `/`, `/search?q=&scope=&tag=` (and the filters, filters.js),
// `/item/{source}/{id}`, `/galleries`, `/galleries/{id}` and `/galleries/{id}?item={itemId}` (one of its
// items in the detail view). Links inside the app change the address with the History API and the app
// renders what the address says, so reload, back, forward and shared links all land in the same place.

import { filterEntries, readFilters } from './filters.js';

const listeners = new Set();

export function onRoute(listener) {
    listeners.add(listener);
}

/** The route the current address names. */
export function current() {
    const { pathname, searchParams } = new URL(location.href);
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

export function go(url, { replace = false, state = null } = {}) {
    history[replace ? 'replaceState' : 'pushState'](state, '', url);
    notify();
}

/** Changes the address without rendering again (for state the page already shows, like the tag filter). */
export function note(url) {
    history.replaceState(history.state, '', url);
}

export function searchURL({ q, scope, filters, tag }) {
    const params = new URLSearchParams({ q, scope });
    for (const [name, value] of filterEntries(filters)) params.set(name, value);
    if (tag) params.set('tag', tag);
    // A licence list reads as the API documents it (`license=commercial,cc0`); a comma needs no escape here.
    return `/search?${params.toString().replaceAll('%2C', ',')}`;
}

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

function notify() {
    const route = current();
    for (const listener of listeners) listener(route);
}

addEventListener('popstate', notify);

/** A click that the page may take over: the main button, no modifier (those open tabs), not handled yet. */
export function isPlainClick(event) {
    return !event.defaultPrevented && event.button === 0
        && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

// Plain clicks on links to the app's own pages stay in the page; modified clicks open tabs as usual.
document.addEventListener('click', (event) => {
    if (!isPlainClick(event)) return;
    const link = event.target.closest?.('a[data-nav]');
    if (!link || link.origin !== location.origin) return;
    event.preventDefault();
    go(link.pathname + link.search);
});
