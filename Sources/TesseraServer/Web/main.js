// Tessera's web app: wires the search form, results, galleries and detail view to the address bar.
import * as api from './api.js';
import { $, h, isTyping, runToastAction, toast } from './dom.js';
import * as router from './router.js';
import { Catalog } from './catalog.js';
import { Results } from './results.js';
import { FilterBar } from './filterbar.js';
import { Detail } from './detail.js';
import { GalleryPicker } from './picker.js';
import { GalleryPanel } from './panel.js';
import { setupConfirm } from './confirm.js';
import { setupNearDuplicate } from './neardup.js';
import { enableGridKeys } from './keyboard.js';
import { watchImages } from './tiles.js';
import { showServices } from './home.js';
import { setupAccount } from './account.js';

const MAX_QUERY = 100;

const form = $('#search-form');
const queryField = $('#q');
const scopePicker = $('#scope');
const queryMessage = $('#query-message');

let catalog = new Catalog();
let results;
let filterBar;
let detail;
let picker;
/** How many addresses have been drawn: a gallery screen still loading its modules gives way to a newer one. */
let renders = 0;

// MARK: - The gallery screens, loaded when one first opens (the search page never needs their modules)

let galleries;
let gallery;
let storedItem;
let galleryModules = null;

function loadGalleryScreens() {
    galleryModules ??= Promise.all([
        import('./galleries/galleries.js'), import('./galleries/gallery.js'), import('./galleries/gallerytiles.js'),
    ]).then(([list, one, tiles]) => {
        galleries = new list.GalleriesView();
        gallery = new one.GalleryView(catalog);
        storedItem = tiles.storedItem;
    }).catch((error) => {
        galleryModules = null; // the next visit tries again
        throw error;
    });
    return galleryModules;
}

/** Loads the gallery screens for the draw numbered `render`; false when that failed or a newer draw began. */
async function galleryScreensFor(render) {
    try {
        await loadGalleryScreens();
    } catch {
        // Offline, or the server was updated since this page loaded and has no longer the version it names.
        toast('The galleries could not be loaded. Reload the page to try again.',
            { action: 'Reload', onAction: () => location.reload() });
        return false;
    }
    return render === renders;
}

async function start() {
    try {
        catalog = new Catalog(await api.sources());
    } catch (error) {
        showQueryMessage(error.message);
    }
    fillScopes();
    showServices(catalog);
    results = new Results(catalog);
    results.onTagChange = (tag) => {
        const route = router.current();
        if (route.view === 'search') router.note(router.searchURL({ ...route, tag }));
    };
    // A choice in the filter bar is a new address: Back returns to the filters before it.
    filterBar = new FilterBar((filters) => {
        const route = router.current();
        if (route.view === 'search') router.go(router.searchURL({ ...route, filters }));
    });
    picker = new GalleryPicker();
    detail = new Detail(catalog, {
        onClose: closeDetail, onAddToGallery: (item) => picker.open(item), neighbour, onStep: stepTo, tagURL,
        copiesOf: (id) => results.folding.copies(id), onChooseCopy: stepTo,
    });
    new GalleryPanel((id) => results.items.get(id));
    setupConfirm();
    setupNearDuplicate();
    for (const grid of [$('#results'), $('#gallery-grid')]) {
        watchImages(grid);
        enableGridKeys(grid);
    }
    // Files dropped where nothing takes them must not replace the app with the file.
    addEventListener('dragover', (event) => {
        if (!event.defaultPrevented && event.dataTransfer?.types.includes('Files')) {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'none';
        }
    });
    addEventListener('drop', (event) => { if (event.dataTransfer?.types.includes('Files')) event.preventDefault(); });
    // Opened at a gallery screen, the first draw waits for its modules, as if they had always been there.
    if (['galleries', 'gallery'].includes(router.current().view)) await loadGalleryScreens().catch(() => {});
    router.onRoute(render);
    render(router.current());
    document.documentElement.dataset.ready = 'true';
}

function fillScopes() {
    const options = [h('option', { value: 'all' }, 'All')];
    for (const section of catalog.sections) {
        // Why a section is off names a setting (the API's `reason`), which the start page's setup link explains.
        const label = section.enabled ? section.title : `${section.title} (off)`;
        options.push(h('option', { value: section.id, disabled: !section.enabled }, label));
    }
    scopePicker.replaceChildren(...options);
}

/** Shows one of the main views (`home`, `results`, `galleries`, `gallery`) and hides the others. */
function showView(name) {
    $('#home').hidden = name !== 'home';
    $('#results-view').hidden = name !== 'results';
    if (name !== 'galleries') galleries?.hide();
    if (name !== 'gallery') gallery?.hide();
    const link = $('#nav-galleries');
    if (name === 'galleries' || name === 'gallery') link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
}

/** Draws what the address names; results already on screen for the same search are kept as they are. */
function render(route) {
    renders += 1;
    if (route.view === 'item') {
        const loaded = results.items.get(`${route.source}:${route.id}`);
        if (loaded) detail.show(loaded);
        else detail.load(route.source, route.id);
        return;
    }
    if (route.view === 'gallery') {
        renderGallery(route);
        return;
    }
    const focus = detail.close();
    if (route.view === 'galleries') {
        showView('galleries');
        renderGalleries(focus);
        return;
    }
    if (route.view === 'search' && valid(route.q) && catalog.isScope(route.scope)) {
        queryField.value = route.q;
        scopePicker.value = route.scope;
        hideQueryMessage();
        showView('results');
        filterBar.show(route.filters);
        if (results.shows(route)) {
            if (route.tag !== results.filter.tag) results.filter.set(route.tag);
            focus?.focus?.({ preventScroll: true });
        } else {
            results.start(route);
        }
        return;
    }
    if (route.view === 'search') {
        queryField.value = route.q ?? ''; // what the person typed stays, to be shortened
        showQueryMessage(catalog.isScope(route.scope)
            ? lengthMessage(route.q)
            : `“${route.scope}” is not something Tessera can search.`);
    }
    results.stop();
    showView('home');
    document.title = 'Tessera';
}

async function renderGalleries(focus) {
    if (!galleries && !(await galleryScreensFor(renders))) return;
    galleries.show();
    focus?.focus?.({ preventScroll: true });
}

/** A gallery, and over it one of its items (`?item=`) from the stored copy, once the gallery is loaded. */
async function renderGallery(route) {
    showView('gallery');
    const focus = route.item ? null : detail.close();
    if (!gallery && !(await galleryScreensFor(renders))) return;
    await gallery.show(route.id);
    if (!route.item) {
        focus?.focus?.({ preventScroll: true });
        return;
    }
    const now = router.current();
    if (now.view !== 'gallery' || now.id !== route.id || now.item !== route.item) return;
    const galleryItem = gallery.items.get(route.item);
    if (!galleryItem) {
        detail.unavailable('This item is not in the gallery any more.');
        return;
    }
    detail.show(storedItem(galleryItem), { source: galleryItem.item, link: router.galleryURL(route.id, route.item) });
}

/** The result shown before (-1) or after (1) `item` in the results (as filtered), with its link. */
function neighbourLink(item, step) {
    results.tails.drawAll();
    const links = [...document.querySelectorAll('#results .tile:not([hidden]) a[data-item]')];
    const index = links.findIndex((link) => link.dataset.item === item.id);
    return index < 0 ? null : links[index + step] ?? null;
}

function neighbour(item, step) {
    const link = neighbourLink(item, step);
    return link ? results.items.get(link.dataset.item) ?? null : null;
}

/** Previous/next in the detail view replaces the address, so Back still returns to the results. */
function stepTo(item) {
    const link = document.querySelector(`#results a[data-item="${CSS.escape(item.id)}"]`);
    if (link) {
        detail.returnFocus = link;
        link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    router.go(router.itemURL(item), { replace: true, state: history.state });
}

/** A tag in the detail view filters the results it was opened from; elsewhere it is a search of its own. */
function tagURL(tag) {
    const route = router.current();
    const fromResults = route.view === 'item' && history.state?.fromResults && results.query;
    return fromResults ? router.searchURL({ ...results.query, tag }) : router.searchURL({ q: tag, scope: 'all' });
}

function closeDetail() {
    // Opened from the results or a gallery: going back returns to them as they were. Opened from a link:
    // go to the gallery it belongs to, or home.
    const route = router.current();
    if (history.state?.fromResults || history.state?.overlay) history.back();
    else if (route.view === 'gallery') router.go(router.galleryURL(route.id), { replace: true });
    else router.go('/', { replace: true });
}

// Counted in code points, as the server and the API's JSON Schema count them (docs/api.md).
const queryLength = (query) => [...query.trim()].length;

function valid(query) {
    const length = queryLength(query);
    return length >= 1 && length <= MAX_QUERY;
}

function lengthMessage(query) {
    const length = queryLength(query);
    return length === 0
        ? 'Type something to search for.'
        : `Searches are at most ${MAX_QUERY} characters; this one has ${length}.`;
}

function showQueryMessage(message) {
    queryMessage.textContent = message;
    queryMessage.hidden = false;
    queryField.setAttribute('aria-invalid', 'true');
}

function hideQueryMessage() {
    queryMessage.hidden = true;
    queryField.removeAttribute('aria-invalid');
}

form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = queryField.value.trim();
    if (!valid(q)) {
        showQueryMessage(lengthMessage(q));
        queryField.focus();
        return;
    }
    hideQueryMessage();
    queryField.blur();
    router.go(router.searchURL({ q, scope: scopePicker.value, filters: shownFilters() }));
});
queryField.addEventListener('input', () => { if (valid(queryField.value)) hideQueryMessage(); });

// The scope picker searches when a choice is committed: picked from its list (mouse, finger), Enter, or leaving
// it. Arrow keys and type-ahead on the closed picker change its value at every key press: no search for each.
let scopeByKey = false;
let scopePending = false;
function searchScope() {
    scopePending = false;
    const q = queryField.value.trim();
    const route = router.current();
    if (!valid(q) || (route.view === 'search' && route.q === q && route.scope === scopePicker.value)) return;
    router.go(router.searchURL({ q, scope: scopePicker.value, filters: shownFilters() }));
}

/** A new query or scope keeps the filters of the results on screen (none from the start page). */
function shownFilters() {
    const route = router.current();
    return route.view === 'search' ? route.filters : {};
}
scopePicker.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
        event.preventDefault();
        searchScope();
    } else if (event.key === 'Escape') {
        const route = router.current();
        if (route.view === 'search' && catalog.isScope(route.scope)) scopePicker.value = route.scope;
        scopePending = false;
    } else if (event.key !== 'Tab') {
        scopeByKey = true;
    }
});
scopePicker.addEventListener('keyup', () => { scopeByKey = false; });
scopePicker.addEventListener('change', () => {
    if (scopeByKey) scopePending = true;
    else searchScope();
});
scopePicker.addEventListener('blur', () => { if (scopePending) searchScope(); });

// A tile's own "Add to gallery" button opens the picker for that result.
document.addEventListener('click', (event) => {
    const button = event.target.closest?.('button[data-add]');
    const item = button && results.items.get(button.dataset.add);
    if (item) picker.open(item);
});

// A result opens in the detail view over the results, which stay as they are underneath.
document.addEventListener('click', (event) => {
    if (!router.isPlainClick(event)) return;
    const link = event.target.closest?.('a[data-item]');
    if (!link) return;
    const item = results.items.get(link.dataset.item);
    if (!item) return;
    event.preventDefault();
    router.go(router.itemURL(item), { state: { fromResults: true } });
});

document.addEventListener('keydown', (event) => {
    const dialogOpen = document.querySelector('dialog[open]');
    if (event.key === '/' && !isTyping(event) && !event.ctrlKey && !event.metaKey && !dialogOpen) {
        event.preventDefault();
        if (detail.isOpen) closeDetail();
        queryField.focus();
        queryField.select();
    } else if (event.key === 'Escape' && detail.isOpen && !dialogOpen && !event.defaultPrevented) {
        closeDetail();
    } else if (event.key === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey && !isTyping(event)) {
        // Ctrl+Z / ⌘Z undoes what the toast offers to undo (a removal, a deletion).
        if (runToastAction()) event.preventDefault();
    }
});

const offline = $('#offline');
const showConnection = () => { offline.hidden = navigator.onLine; };
addEventListener('online', showConnection);
addEventListener('offline', showConnection);
showConnection();

start();
setupAccount();
