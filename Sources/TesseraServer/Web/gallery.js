// One gallery (`/galleries/{id}`): its items as tiles in the user's order, kept live with the gallery's
// event stream, and the changes this page makes (add, move, remove, rename).
//
// Revisions: the page remembers the revision it shows. Events not newer than it are dropped. A change made
// here is shown at once; the server's answer names its revision, and when that is exactly the next one
// the page is up to date. When it is not (another tab changed the gallery in between) or another tab's
// event arrived while a change of ours was on its way, the page asks for the whole gallery once its own
// requests have settled, so every tab ends with the server's one order. Applying an event is idempotent
// (by item id), so an event for our own change arriving before its answer does no harm.
import * as api from './api.js';
import { $, toast } from './dom.js';
import { galleryURL, go } from './router.js';
import { renamable } from './rename.js';
import { itemCount } from './galleries.js';
import { TileMenu } from './tilemenu.js';
import { GalleryDrops } from './gallerydrops.js';
import { TouchReorder } from './touchreorder.js';
import * as tiles from './gallerytiles.js';

export class GalleryView {
  constructor(catalog) {
    this.catalog = catalog;
    this.element = $('#gallery-view');
    this.grid = $('#gallery-grid');
    this.heading = $('#gallery-heading');
    this.banner = $('#gallery-banner');
    this.items = new Map();
    this.id = null;
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
    // Kept by reference: while it is being renamed, the button is out of the page.
    this.nameButton = $('#gallery-name');
    renamable(this.nameButton, { save: (value) => this.rename(value) });
  }

  get readOnly() {
    return !this.gallery || Boolean(this.gallery.deletedAt);
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
  }

  async load(id) {
    try {
      const gallery = await api.gallery(id);
      if (id !== this.id) return;
      this.render(gallery);
      this.follow(id);
    } catch (error) {
      if (id !== this.id) return;
      this.setState('missing', error.status === 404 ? 'There is no such gallery. It may have been deleted for good.' : error.message);
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
    this.gallery = { ...gallery, items: undefined };
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
    this.element.classList.toggle('read-only', Boolean(gallery.deletedAt));
  }

  updateCount() {
    $('#gallery-count').textContent = itemCount(this.items.size);
    $('#gallery-empty').hidden = this.items.size > 0 || this.grid.querySelector('.pending') !== null;
  }

  setState(state, message = '') {
    this.element.dataset.state = state;
    $('#gallery-status').textContent = state === 'loading' ? 'Loading…' : message;
    $('#gallery-status').hidden = state === 'ready';
    for (const part of this.element.querySelectorAll('.gallery-head, #gallery-drop')) part.hidden = state !== 'ready';
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
        if (element.contains(document.activeElement)) document.activeElement.scrollIntoView({ block: 'nearest' });
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

  /** Runs one change of ours against the server and keeps the revision bookkeeping (see the top). */
  async mutate(request) {
    const id = this.id;
    this.pending++;
    try {
      const answer = await request();
      if (id === this.id) {
        if (answer?.revision === this.revision + 1) this.revision = answer.revision;
        else if (!(answer?.revision <= this.revision)) this.stale = true;
      }
      return answer;
    } catch (error) {
      if (id === this.id) this.stale = true;
      throw error;
    } finally {
      this.pending--;
      if (id === this.id && this.pending === 0 && this.stale) this.resync();
    }
  }

  async resync() {
    const id = this.id;
    this.stale = false;
    try {
      const gallery = await api.gallery(id);
      if (id === this.id && this.pending === 0 && gallery.revision >= this.revision) this.render(gallery);
    } catch (error) {
      if (id === this.id && error.status === 404) this.apply('gone', {});
    }
  }

  // MARK: - Changes

  /** Adds each source (`{item}`, `{url}` or `{file}`) in turn from `index` on (null: at the end). */
  async addMany(sources, index) {
    if (this.readOnly) {
      toast('Restore this gallery before adding to it.');
      return;
    }
    const placeholders = sources.map((source) => tiles.placeholderTile(label(source)));
    const before = index == null ? null : tiles.itemTiles(this.grid)[index] ?? null;
    for (const placeholder of placeholders) this.grid.insertBefore(placeholder, before);
    this.updateCount();
    for (const [n, source] of sources.entries()) {
      const placeholder = placeholders[n];
      const at = tiles.itemsBefore(this.grid, placeholder);
      try {
        const { item } = await this.addOne(source, at);
        this.items.set(item.id, item);
        if (this.tileElement(item.id) || !placeholder.isConnected) placeholder.remove();
        else placeholder.replaceWith(this.tileFor(item));
      } catch (error) {
        placeholder.remove();
        toast(`${label(source)} was not added: ${error.message}`);
      }
      this.updateCount();
    }
  }

  /** Adds one source; when it fails, each of its `fallbacks` in turn (see `remove`). */
  async addOne(source, index) {
    const { fallbacks = [], ...first } = source;
    let failure;
    for (const attempt of [first, ...fallbacks]) {
      try {
        return await this.mutate(() => api.addToGallery(this.id, { ...attempt, index }));
      } catch (error) {
        failure = failure ?? error;
        if (error.status === 409 || error.code === 'gallery_not_found') break;
      }
    }
    throw failure;
  }

  async move(id, index) {
    const element = this.tileElement(id);
    const from = this.indexOf(id);
    if (!element || index === from || index < 0 || index >= this.items.size || this.readOnly) return;
    const focused = element.contains(document.activeElement) ? document.activeElement : null;
    this.place(element, index);
    focused?.focus({ preventScroll: true });
    focused?.scrollIntoView({ block: 'nearest' });
    try {
      await this.mutate(() => api.moveInGallery(this.id, id, index));
    } catch (error) {
      toast(error.message);
    }
  }

  async remove(id, { focusNeighbour = false } = {}) {
    const galleryItem = this.items.get(id);
    const element = this.tileElement(id);
    if (!galleryItem || !element || this.readOnly) return;
    const index = this.indexOf(id);
    const neighbour = element.nextElementSibling ?? element.previousElementSibling;
    this.items.delete(id);
    this.removeTile(element);
    if (focusNeighbour) (neighbour?.querySelector('a') ?? $('#gallery-upload')).focus();
    const { item, sourceURL } = galleryItem;
    // Undo adds the same item again, and the server fetches its image from the item's URL. For an import
    // that URL is the stored copy, which goes with the item when nothing else uses the bytes: keep them
    // (and the page it came from) to fall back on.
    const fallbacks = [];
    if (item.source === 'web' || item.source === 'upload') {
      if (sourceURL) fallbacks.push({ url: sourceURL });
      const file = await api.imageFile(galleryItem.image?.original?.url ?? item.full?.url, item.title);
      if (file) fallbacks.push({ file });
    }
    try {
      await this.mutate(() => api.removeFromGallery(this.id, id));
      toast(`Removed “${item.title}”`, { action: 'Undo', onAction: () => this.addMany([{ item, fallbacks }], index) });
    } catch (error) {
      toast(error.message);
    }
  }

  removeTile(element) {
    if (element.contains(document.activeElement)) this.menu.close(false);
    element.remove();
    this.updateCount();
  }

  menuAction(action, id, button) {
    if (action === 'remove') {
      this.remove(id, { focusNeighbour: true });
      return;
    }
    // The move is shown at once; the menu button moved with its tile, so Move right again is one Enter away.
    this.move(id, this.indexOf(id) + (action === 'left' ? -1 : 1));
    button?.focus();
  }

  async rename(name) {
    const renamed = await this.mutate(() => api.renameGallery(this.id, name));
    this.gallery.name = renamed.name;
    this.showMeta();
  }

  async restore() {
    try {
      const restored = await this.mutate(() => api.restoreGallery(this.id));
      this.gallery.deletedAt = restored.deletedAt;
      this.showMeta();
      toast(`Restored ${restored.name}`);
    } catch (error) {
      toast(error.message);
    }
  }
}

/** How a toast or placeholder names what is being added. */
function label(source) {
  if (source.item) return `“${source.item.title}”`;
  if (source.file) return `“${source.file.name}”`;
  try {
    const url = new URL(source.url);
    return `“${decodeURIComponent(url.pathname.split('/').pop() || url.hostname)}”`;
  } catch {
    return 'The image';
  }
}
