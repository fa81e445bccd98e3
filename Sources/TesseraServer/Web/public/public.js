// A public link's page (`/s/{slug}`), for someone without an account: no search, no edits, nothing of the
// owner's other galleries. It asks `/api/shared/{slug}` what the link shows: a view link the gallery (the
// grid in the owner's order, the detail view, the credits); a drop link a place to add images, and the
// gallery's items only when the link says so. A password asks for the password first; an expired, revoked
// or unknown link says so on a page of its own.
import * as api from '../shared/api.js';
import { $, itemCount, retryText } from '../shared/dom.js';
import { Catalog } from '../shared/catalog.js';
import { SharedGrid } from './grid.js';
import { DropArea } from './drop.js';

// The names people know the services by (a visitor cannot ask /api/sources); `local` is the owner's own.
const SOURCES = [
    ['local', 'Photo library'], ['pixabay', 'Pixabay'], ['flickr', 'Flickr'], ['openverse', 'Openverse'],
    ['wikimedia', 'Wikimedia Commons'], ['itunes', 'iTunes'], ['web', 'The web'], ['upload', 'Upload'],
].map(([id, title]) => ({ id, title, enabled: true }));

const slug = decodeURIComponent(location.pathname.match(/^\/s\/([^/]+)/)?.[1] ?? '');
const catalog = new Catalog(SOURCES);
let shared = null;
let grid = null;
let drop = null;
let creditsSheet = null;

const title = () => (shared ? `${shared.gallery.name} · Tessera` : 'Tessera');

/** Shows one of the page's states: `loading`, `closed` (a message page), `password` or `ready`. */
function setState(state) {
    document.body.dataset.state = state;
    $('#public-status').hidden = state !== 'loading';
    $('#public-closed').hidden = state !== 'closed';
    $('#unlock-form').hidden = state !== 'password';
    $('#public-gallery').hidden = state !== 'ready';
}

function close(heading, text, { retry = false } = {}) {
    $('#closed-title').textContent = heading;
    $('#closed-text').textContent = text;
    $('#closed-retry').hidden = !retry;
    document.title = `${heading} · Tessera`;
    setState('closed');
}

async function load() {
    if (!slug) {
        close('This link does not exist', 'The address is not complete. Ask for the link again.');
        return;
    }
    try {
        show(await api.shared(slug));
    } catch (error) {
        refused(error);
    }
}

/** What a refusal of the link means to its visitor (the API's codes, docs/accounts.md). */
function refused(error) {
    if (error.code === 'link_password_required') {
        askPassword();
    } else if (error.code === 'link_not_found') {
        close('This link does not exist',
            'It may have been revoked by the person who shared it, or the address may be mistyped.');
    } else if (error.code === 'link_expired') {
        close('This link has expired', 'Ask the person who shared it for a new link.');
    } else {
        close('This gallery cannot be shown now', error.message, { retry: true });
    }
}

function askPassword() {
    document.title = 'Password needed · Tessera';
    setState('password');
    $('#unlock-password').focus();
}

async function unlock(event) {
    event.preventDefault();
    const field = $('#unlock-password');
    const message = $('#unlock-message');
    if (!field.value) {
        message.textContent = 'Type the password you were given with the link.';
        message.hidden = false;
        field.focus();
        return;
    }
    const button = $('#unlock-submit');
    button.disabled = true;
    try {
        await api.unlockShared(slug, field.value);
        message.hidden = true;
        field.value = '';
        show(await api.shared(slug));
    } catch (error) {
        if (error.code === 'link_password_wrong') {
            message.textContent = 'That password is not right. Check it and try again.';
        } else if (error.code === 'too_many_attempts' || error.code === 'rate_limited') {
            message.textContent = `Too many wrong passwords. Try again ${retryText(error.retryAfter)}.`;
        } else if (error.code === 'link_password_required') {
            message.textContent = 'The password was taken, but the link still asks for it. Try again.';
        } else {
            refused(error);
            return;
        }
        message.hidden = false;
        field.select();
    } finally {
        button.disabled = false;
    }
}

function show(answer) {
    shared = answer;
    const { gallery, kind } = answer;
    const items = answer.items ?? [];
    $('#public-name').textContent = gallery.name;
    $('#public-kind').textContent = kind === 'drop'
        ? 'Someone shared this gallery with you to add images to it.'
        : 'Someone shared this gallery with you.';
    document.title = title();
    grid ??= new SharedGrid(catalog, title);
    // A drop link without showItems sends no items: the grid shows only what this visitor adds, below.
    const showsItems = kind === 'view' || Boolean(answer.showItems);
    grid.show(showsItems ? items : []);
    $('#public-grid').hidden = !showsItems;
    $('#public-credits').hidden = !showsItems;
    if (kind === 'drop') {
        drop ??= new DropArea(slug, {
            perHour: answer.perHour,
            showsItems,
            onAdded: (galleryItem) => {
                if (!showsItems) return;
                grid.add(galleryItem);
                updateCount();
            },
        });
        drop.show();
    }
    updateCount();
    setState('ready');
    grid.follow();
}

function updateCount() {
    const showsItems = shared.kind === 'view' || shared.showItems;
    $('#public-count').textContent = showsItems ? itemCount(grid.count) : '';
    $('#public-empty').hidden = !showsItems || grid.count > 0;
}

async function showCredits() {
    creditsSheet ??= new (await import('../galleries/credits.js')).CreditsSheet(sharedCredits);
    await creditsSheet.open(slug);
}

/** The credits through the link, as the gallery's own Credits sheet shows them. */
const sharedCredits = {
    credits: (id) => api.sharedCredits(id),
    document: (id, format) => api.sharedCreditsDocument(id, format),
};

$('#unlock-form').addEventListener('submit', unlock);
$('#public-credits').addEventListener('click', () => showCredits());
$('#closed-retry').addEventListener('click', () => {
    setState('loading');
    load();
});
// Files dropped where nothing takes them must not replace the page with the file.
addEventListener('dragover', (event) => {
    if (!event.defaultPrevented && event.dataTransfer?.types.includes('Files')) {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'none';
    }
});
addEventListener('drop', (event) => { if (event.dataTransfer?.types.includes('Files')) event.preventDefault(); });
document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && grid?.detail.isOpen && !document.querySelector('dialog[open]')
        && !event.defaultPrevented) grid.close();
});

setState('loading');
load().finally(() => { document.documentElement.dataset.ready = 'true'; });
