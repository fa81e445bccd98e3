// The address bar: the app draws what the address names (routes.js), and links inside the app change it
// with the History API, so reload, back, forward and shared links all land in the same place.
import { routeOf } from './routes.js';

const listeners = new Set();

export function onRoute(listener) {
    listeners.add(listener);
}

/** The route the current address names. */
export const current = () => routeOf(location.href);

export function go(url, { replace = false, state = null } = {}) {
    history[replace ? 'replaceState' : 'pushState'](state, '', url);
    notify();
}

/** Changes the address without drawing again (for state the page already shows, like the tag filter). */
export function note(url) {
    history.replaceState(history.state, '', url);
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
