// Tessera's web app: makes each screen once and shows the one the address names. The search page and the
// detail view come at once; the gallery screens' modules load the first time one opens (docs/web.md).
import * as api from './shared/api.js';
import { $, isTyping, runToastAction, toast } from './shared/dom.js';
import * as router from './shared/router.js';
import { galleryURL, itemURL } from './shared/routes.js';
import { Catalog } from './shared/catalog.js';
import { setupConfirm } from './shared/confirm.js';
import { setupNearDuplicate } from './shared/neardup.js';
import { enableGridKeys } from './shared/keyboard.js';
import { watchImages } from './shared/tiles.js';
import { SearchBox } from './search/searchbox.js';
import { SearchScreen } from './search/search.js';
import { Detail } from './detail/detail.js';
import { setupAccount } from './account/account.js';

// The search box takes a search from the first moment; the screens wait for the catalog (`start`).
const box = new SearchBox();
let catalog = new Catalog();
let search;
let detail;
/** How many addresses have been drawn: a gallery screen still loading its modules gives way to a newer one. */
let renders = 0;

// MARK: - The gallery screens, loaded when one first opens (the search page never needs their modules)

let galleries;
let gallery;
let storedItem;
let galleryModules = null;

function loadGalleryScreens() {
    galleryModules ??= Promise.all([
        import('./galleries/galleries.js'), import('./galleries/gallery.js'), import('./galleries/tiles.js'),
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
        // Offline, or the server was updated since this page loaded and lacks the version it names.
        toast('The galleries could not be loaded. Reload the page to try again.',
            { action: 'Reload', onAction: () => location.reload() });
        return false;
    }
    return render === renders;
}

// MARK: - Start

async function start() {
    try {
        catalog = new Catalog(await api.sources());
    } catch (error) {
        box.showMessage(error.message);
    }
    box.fillScopes(catalog);
    search = new SearchScreen(catalog, box);
    detail = new Detail(catalog, {
        onClose: closeDetail, onAddToGallery: (item) => search.picker.open(item), onStep: stepTo,
        neighbour: (item, step) => search.neighbour(item, step), tagURL: (tag) => search.tagURL(tag),
        copiesOf: (id) => search.copies(id), onChooseCopy: stepTo,
    });
    setupConfirm();
    setupNearDuplicate();
    for (const grid of [$('#results'), $('#gallery-grid')]) {
        watchImages(grid);
        enableGridKeys(grid);
    }
    // Opened at a gallery screen, the first draw waits for its modules, as if they had always been there.
    if (['galleries', 'gallery'].includes(router.current().view)) await loadGalleryScreens().catch(() => {});
    router.onRoute(render);
    render(router.current());
    document.documentElement.dataset.ready = 'true';
}

/** Shows one screen (`search`, `galleries`, `gallery`) and hides the others. */
function showView(name) {
    if (name !== 'search') search.hide();
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
        const loaded = search.item(route.source, route.id);
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
    showView('search');
    search.show(route, focus);
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
    detail.show(storedItem(galleryItem), { source: galleryItem.item, link: galleryURL(route.id, route.item) });
}

// MARK: - The detail view over the results

/** Previous/next in the detail view replaces the address, so Back still returns to the results. */
function stepTo(item) {
    const link = search.linkTo(item);
    if (link) {
        detail.returnFocus = link;
        link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    router.go(itemURL(item), { replace: true, state: history.state });
}

function closeDetail() {
    // Opened from the results or a gallery: going back returns to them as they were. Opened from a link:
    // go to the gallery it belongs to, or home.
    const route = router.current();
    if (history.state?.fromResults || history.state?.overlay) history.back();
    else if (route.view === 'gallery') router.go(galleryURL(route.id), { replace: true });
    else router.go('/', { replace: true });
}

// MARK: - The page as a whole

document.addEventListener('keydown', (event) => {
    const dialogOpen = document.querySelector('dialog[open]');
    if (event.key === '/' && !isTyping(event) && !event.ctrlKey && !event.metaKey && !dialogOpen) {
        event.preventDefault();
        if (detail.isOpen) closeDetail();
        box.focus();
    } else if (event.key === 'Escape' && detail.isOpen && !dialogOpen && !event.defaultPrevented) {
        closeDetail();
    } else if (event.key === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey && !isTyping(event)) {
        // Ctrl+Z / ⌘Z undoes what the toast offers to undo (a removal, a deletion).
        if (runToastAction()) event.preventDefault();
    }
});

// Files dropped where nothing takes them must not replace the app with the file.
addEventListener('dragover', (event) => {
    if (!event.defaultPrevented && event.dataTransfer?.types.includes('Files')) {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'none';
    }
});
addEventListener('drop', (event) => { if (event.dataTransfer?.types.includes('Files')) event.preventDefault(); });

const offline = $('#offline');
const showConnection = () => { offline.hidden = navigator.onLine; };
addEventListener('online', showConnection);
addEventListener('offline', showConnection);
showConnection();

start();
setupAccount();
