// One gallery (`/galleries/{id}`): its items as tiles in the user's order, kept live with the gallery's
// event stream. The changes this page makes (add, move, remove, rename) are in changes.js.
//
// Revisions: the page remembers the revision it shows. Events not newer than it are dropped. A change made
// here is shown at once; the server's answer names its revision, and when that is exactly the next one
// the page is up to date. When it is not (another tab changed the gallery in between) or another tab's
// event arrived while a change of ours was on its way, the page asks for the whole gallery once its own
// requests have settled, so every tab ends with the server's one order. Applying an event is idempotent
// (by item id), so an event for our own change arriving before its answer does no harm.
import * as api from '../shared/api.js';
import { $, toast, itemCount } from '../shared/dom.js';
import { go } from '../shared/router.js';
import { galleryURL } from '../shared/routes.js';
import { renamable } from './rename.js';
import { TileMenu } from './tilemenu.js';
import { GalleryDrops } from './drops.js';
import { TouchReorder } from './touchreorder.js';
import * as tiles from './tiles.js';
import { changes } from './changes.js';
import { ShareDialog } from './share.js';

export class GalleryView {
    constructor(catalog) {
        this.catalog = catalog;
        this.element = $('#gallery-view');
        this.grid = $('#gallery-grid');
        this.banner = $('#gallery-banner');
        this.items = new Map();
        this.id = null;
        /** Counts each showing of a gallery: what a request began under an earlier one must not touch. */
        this.visit = 0;
        this.menu = new TileMenu((action, id, button) => this.menuAction(action, id, button));
        this.drops = new GalleryDrops(this);
        this.touch = new TouchReorder(this, this.drops);

        this.grid.addEventListener('click', (event) => {
            const more = event.target.closest('.tile-menu');
            if (more) {
                const id = more.closest('.tile').dataset.id;
                this.menu.open(more, id, { index: this.indexOf(id), count: this.items.size });
                return;
            }
            const link = event.target.closest('a[data-gallery-item]');
            if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            go(galleryURL(this.id, link.dataset.galleryItem), { state: { overlay: true } });
        });
        this.grid.addEventListener('keydown', (event) => {
            const link = event.target.closest?.('a[data-gallery-item]');
            if (link && (event.key === 'Delete' || event.key === 'Backspace') && !this.readOnly) {
                event.preventDefault();
                this.remove(link.dataset.galleryItem, { focusNeighbour: true });
            }
        });
        $('#gallery-upload').addEventListener('click', () => $('#gallery-file').click());
        $('#gallery-file').addEventListener('change', (event) => {
            const files = [...event.target.files];
            event.target.value = '';
            if (files.length) this.addMany(files.map((file) => ({ file })), null);
        });
        $('#gallery-url-form').addEventListener('submit', (event) => {
            event.preventDefault();
            const field = $('#gallery-url');
            const url = field.value.trim();
            if (!/^https?:\/\//i.test(url)) {
                toast('Paste the address of an image, starting with http:// or https://.');
                field.focus();
                return;
            }
            field.value = '';
            this.addMany([{ url }], null);
        });
        $('#gallery-restore').addEventListener('click', () => this.restore());
        $('#gallery-credits').addEventListener('click', () => this.showCredits());
        // Kept by reference: while it is being renamed, the button is out of the page.
        this.nameButton = $('#gallery-name');
        renamable(this.nameButton, { save: (value) => this.rename(value) });
        this.share = new ShareDialog();
        $('#gallery-share').addEventListener('click', () => this.share.open(this.gallery));
    }

    /** The Credits sheet, loaded the first time it is asked for. */
    async showCredits() {
        if (!this.id) return;
        this.creditsSheet ??= new (await import('./credits.js')).CreditsSheet();
        await this.creditsSheet.open(this.id);
    }

    /** Deleted, or shared with this user to view only (with accounts). */
    get readOnly() {
        return !this.gallery || Boolean(this.gallery.deletedAt) || this.gallery.role === 'viewer';
    }

    get isShown() {
        return !this.element.hidden && this.id !== null;
    }

    // MARK: - Showing

    /** Shows gallery `id` and follows its changes; resolves once its items are on screen. */
    async show(id) {
        this.element.hidden = false;
        if (this.id === id) return this.loading;
        this.stopFollowing();
        this.id = id;
        this.visit++;
        this.gallery = null;
        this.items.clear();
        this.grid.replaceChildren();
        this.revision = 0;
        this.pending = 0;
        this.stale = false;
        this.setState('loading');
        this.loading = this.load(id);
        return this.loading;
    }

    hide() {
        this.element.hidden = true;
        this.menu.close(false);
        this.stopFollowing();
        this.id = null;
        this.visit++;
    }

    async load(id) {
        const visit = this.visit;
        try {
            const gallery = await api.gallery(id);
            if (visit !== this.visit) return;
            this.render(gallery);
            this.follow(id);
        } catch (error) {
            if (visit !== this.visit) return;
            this.setState('missing', error.code === 'gallery_not_found'
                ? 'There is no such gallery. It may have been deleted for good.'
                : error.message);
        }
    }

    follow(id) {
        this.stopFollowing();
        this.unfollow = api.followGallery(id, {
            onEvent: (type, data) => { if (id === this.id) this.apply(type, data); },
            // The browser gave up (the server restarted, or the gallery is gone): catch up once, then listen again.
            onBroken: () => setTimeout(async () => {
                if (id !== this.id) return;
                await this.resync();
                if (id === this.id && this.element.dataset.state === 'ready') this.follow(id);
            }, 2000),
        });
    }

    stopFollowing() {
        this.unfollow?.();
        this.unfollow = null;
    }

    /** Draws the whole gallery, keeping the tiles (and focus) of items already shown. */
    render(gallery) {
        // Snapshots from the event stream do not say who the user is to the gallery: keep what the page knew.
        const known = this.gallery?.id === gallery.id ? this.gallery : {};
        this.gallery = {
            ...gallery, items: undefined, owner: gallery.owner ?? known.owner, role: gallery.role ?? known.role,
        };
        this.revision = gallery.revision;
        this.items = new Map(gallery.items.map((item) => [item.id, item]));
        tiles.showItems(this.grid, gallery.items, (item) => this.tileFor(item));
        this.showMeta();
        this.setState('ready');
    }

    showMeta() {
        const gallery = this.gallery;
        this.nameButton.textContent = gallery.name;
        this.nameButton.setAttribute('aria-label', `Rename ${gallery.name}`);
        this.grid.setAttribute('aria-label', `Items in ${gallery.name}`);
        $('#gallery-export').href = api.galleryExportURL(gallery.id);
        document.title = `${gallery.name} · Tessera`;
        this.updateCount();
        this.banner.hidden = !gallery.deletedAt;
        this.element.classList.toggle('read-only', this.readOnly);
        this.nameButton.disabled = gallery.role === 'viewer';
        // Only the owner shares (with accounts; without them there is nobody to share with).
        $('#gallery-share').hidden = gallery.role !== 'owner';
    }

    updateCount() {
        $('#gallery-count').textContent = itemCount(this.items.size);
        $('#gallery-empty').hidden = this.items.size > 0 || this.grid.querySelector('.pending') !== null;
    }

    setState(state, message = '') {
        this.element.dataset.state = state;
        $('#gallery-status').textContent = state === 'loading' ? 'Loading…' : message;
        $('#gallery-status').hidden = state === 'ready';
        for (const part of this.element.querySelectorAll('.gallery-head, #gallery-drop')) {
            part.hidden = state !== 'ready';
        }
        if (state !== 'ready') this.banner.hidden = true;
    }

    tileFor(galleryItem) {
        return tiles.galleryTile(galleryItem, this.id, this.catalog.sourceTitle(galleryItem.item.source));
    }

    tileElement(id) {
        return tiles.itemTile(this.grid, id);
    }

    indexOf(id) {
        return tiles.indexOf(this.grid, id);
    }

    place(element, index) {
        tiles.place(this.grid, element, index);
    }

    // MARK: - Live updates

    apply(type, data) {
        if (type === 'gone') {
            this.stopFollowing();
            this.setState('missing', `“${this.gallery?.name ?? 'This gallery'}” was deleted for good.`);
            return;
        }
        if (!(data.revision > this.revision)) return;
        if (type === 'snapshot') {
            this.render(data);
            return;
        }
        const changed = this.change(type, data);
        this.revision = data.revision;
        this.gallery.revision = data.revision;
        if (changed && this.pending > 0) this.stale = true;
    }

    /** Applies one event; answers whether anything changed on screen. */
    change(type, data) {
        switch (type) {
            case 'added': {
                this.items.set(data.item.id, data.item);
                const existing = this.tileElement(data.item.id);
                if (existing && this.indexOf(data.item.id) === data.index) return false;
                this.place(existing ?? this.tileFor(data.item), data.index);
                this.updateCount();
                return true;
            }
            case 'removed': {
                this.items.delete(data.itemId);
                const element = this.tileElement(data.itemId);
                if (!element) return false;
                this.removeTile(element);
                return true;
            }
            case 'moved': {
                const element = this.tileElement(data.itemId);
                if (!element || this.indexOf(data.itemId) === data.index) return false;
                this.place(element, data.index);
                if (element.contains(document.activeElement)) {
                    document.activeElement.scrollIntoView({ block: 'nearest' });
                }
                return true;
            }
            case 'renamed':
                this.gallery.name = data.name;
                this.showMeta();
                return true;
            case 'deleted':
                this.gallery.deletedAt = data.deletedAt;
                this.showMeta();
                return true;
            case 'restored':
                this.gallery.deletedAt = null;
                this.showMeta();
                return true;
            default:
                return false;
        }
    }

    /** Runs one change of ours against the server and keeps the revision bookkeeping (see the top) when it
     * is to the gallery on screen (`galleryID`: another one, for an Undo after the user moved on). */
    async mutate(request, galleryID = this.id) {
        const visit = galleryID === this.id ? this.visit : -1;
        const here = () => visit === this.visit;
        if (here()) this.pending++;
        try {
            const answer = await request();
            if (here()) {
                if (answer?.revision === this.revision + 1) this.revision = answer.revision;
                else if (!(answer?.revision <= this.revision)) this.stale = true;
            }
            return answer;
        } catch (error) {
            if (here()) this.stale = true;
            throw error;
        } finally {
            if (here()) {
                this.pending--;
                if (this.pending === 0 && this.stale) this.resync();
            }
        }
    }

    async resync() {
        const visit = this.visit;
        this.stale = false;
        try {
            const gallery = await api.gallery(this.id);
            if (visit === this.visit && this.pending === 0 && gallery.revision >= this.revision) this.render(gallery);
        } catch (error) {
            if (visit === this.visit && error.code === 'gallery_not_found') this.apply('gone', {});
        }
    }
}

// The changes this page makes: changes.js.
Object.assign(GalleryView.prototype, changes);
