// The detail view: the preview with a spinner until it loads (the thumbnail, already cached, shows
// meanwhile), the original on demand, zoom and pan, previous/next through the results (buttons, arrow keys,
// a swipe), credits, actions, the metadata sheet, and a page of its own for an item that is gone.
import * as api from '../shared/api.js';
import { $, $$, h, toast, copyText, copyRich } from '../shared/dom.js';
import { creditMarkdown, creditXML, isWebURL } from '../shared/attribution.js';
import { renderInfo, clearInfo, metadataRows } from './info.js';
import { renderKind, clearKind, stopPlayer } from './kind.js';
import { renderCopies } from './copies.js';
import { Zoom } from './zoom.js';
import { itemURL, nativeID } from '../shared/routes.js';

const EXTENSIONS = {
    'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif',
    'image/heic': 'heic',
};

export class Detail {
    /**
     * `onAddToGallery(item)` opens the gallery picker for the item shown; `neighbour(item, step)` is the
     * result before (-1) or after (1) it as the results show them, or null; `onStep(item)` shows that one;
     * `tagURL(tag)` is where a tag leads; `copiesOf(id)` the copies of a picture (search/groups.js),
     * `onChooseCopy(copy)` shows one.
     */
    constructor(catalog, { onClose, onAddToGallery, neighbour, onStep, tagURL, copiesOf, onChooseCopy }) {
        this.catalog = catalog;
        this.onClose = onClose;
        this.onAddToGallery = onAddToGallery;
        this.neighbour = neighbour;
        this.onStep = onStep;
        this.tagURL = tagURL;
        this.copiesOf = copiesOf;
        this.onChooseCopy = onChooseCopy;
        this.element = $('#detail');
        this.stage = $('#stage');
        this.image = $('#stage-image');
        this.spinner = $('#stage-spinner');
        this.menu = $('#action-menu');
        this.zoom = new Zoom(this.stage, this.image);
        this.generation = 0;

        $('#detail-close').addEventListener('click', () => this.onClose());
        $('#zoom-in').addEventListener('click', () => this.zoom.zoomIn());
        $('#zoom-out').addEventListener('click', () => this.zoom.zoomOut());
        $('#zoom-reset').addEventListener('click', () => this.zoom.reset());
        $('#detail-prev').addEventListener('click', () => this.step(-1));
        $('#detail-next').addEventListener('click', () => this.step(1));
        this.watchSwipes();
        this.element.addEventListener('click', (event) => {
            const button = event.target.closest('button[data-action]');
            if (!button) {
                if (!event.target.closest('#action-menu')) this.hideMenu();
                return;
            }
            this.hideMenu();
            this.act(button.dataset.action, button);
        });
        // Desktop: right-click; touch: a long press. Both open the same actions as a menu.
        this.stage.addEventListener('contextmenu', (event) => {
            event.preventDefault();
            this.showMenu(event.clientX, event.clientY);
        });
        this.stage.addEventListener('pointerdown', (event) => {
            if (event.pointerType !== 'touch') return;
            const start = { x: event.clientX, y: event.clientY };
            clearTimeout(this.pressTimer);
            this.pressTimer = setTimeout(() => this.showMenu(start.x, start.y), 550);
            this.pressStart = start;
        });
        this.stage.addEventListener('pointermove', (event) => {
            const start = this.pressStart;
            if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) {
                clearTimeout(this.pressTimer);
            }
        });
        for (const type of ['pointerup', 'pointercancel']) {
            this.stage.addEventListener(type, () => clearTimeout(this.pressTimer));
        }
        this.menu.addEventListener('keydown', (event) => this.menuKey(event));
        this.element.addEventListener('keydown', (event) => {
            if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
                // Zoomed in, the arrows pan (zoom.js); in the menu or a field they are theirs.
                if (this.zoom.scale > 1 || !this.menu.hidden || event.target.closest('input, textarea')) return;
                if (event.altKey || event.ctrlKey || event.metaKey) return;
                event.preventDefault();
                this.step(event.key === 'ArrowLeft' ? -1 : 1);
                return;
            }
            if (event.key !== 'Escape') return;
            event.preventDefault();
            if (!this.menu.hidden) this.hideMenu(true);
            else this.onClose();
        });
        $$('dialog [data-close]').forEach((button) => {
            button.addEventListener('click', () => button.closest('dialog').close());
        });
    }

    get isOpen() {
        return !this.element.hidden;
    }

    /**
     * Opens the view for an item already loaded. A gallery item comes as the item with the stored copy's
     * image URLs, plus `source` (the item as the search gave it, for "Add to gallery") and `link` (its
     * address in the gallery, for Share), so it shows when the source is offline.
     */
    show(item, { source = item, link = itemURL(item) } = {}) {
        this.generation++;
        this.open();
        this.render(item, { source, link });
    }

    /** Opens the view with a message instead of an item (a gallery item that is no longer there). */
    unavailable(message) {
        this.generation++;
        this.open();
        this.item = null;
        this.clearInfo();
        this.image.removeAttribute('src');
        this.spinner.hidden = true;
        $('#detail-title').textContent = 'Not available';
        this.showError(message);
    }

    /** The page for an address whose item the service no longer has (or never had). */
    missing(source) {
        this.item = null;
        this.clearInfo();
        this.spinner.hidden = true;
        const title = this.catalog.sourceTitle(source);
        $('#detail-title').textContent = 'Not found';
        $('#detail-missing-text').textContent = title
            ? `${title} no longer has this item, or the link to it is mistyped. It may have been removed by ` +
                'the person who shared it.'
            : 'There is no such item here: the link may be mistyped.';
        this.element.classList.add('missing');
        $('#detail-missing').hidden = false;
        $('#detail-missing a').focus();
    }

    /** Shows the result before (-1) or after (1) the one shown, if there is one. */
    step(direction) {
        const next = this.item && this.neighbour?.(this.item, direction);
        if (next) this.onStep?.(next);
    }

    /** A horizontal swipe on the unzoomed image steps through the results, like the arrow keys. */
    watchSwipes() {
        let start = null;
        this.stage.addEventListener('pointerdown', (event) => {
            start = event.pointerType === 'touch' && event.isPrimary && this.zoom.scale <= 1
                ? { x: event.clientX, y: event.clientY, id: event.pointerId }
                : null;
        });
        this.stage.addEventListener('pointerup', (event) => {
            if (!start || event.pointerId !== start.id || this.zoom.scale > 1) return;
            const dx = event.clientX - start.x;
            const dy = event.clientY - start.y;
            start = null;
            if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) this.step(dx < 0 ? 1 : -1);
        });
        this.stage.addEventListener('pointercancel', () => { start = null; });
    }

    /** Shows or hides previous/next for what the results around the item are. */
    showNeighbours(item) {
        for (const [id, step] of [['#detail-prev', -1], ['#detail-next', 1]]) {
            $(id).hidden = !(item && this.neighbour?.(item, step));
        }
    }

    /** Opens the view for an address, loading the item (a reload or a shared link). */
    async load(source, id) {
        const generation = ++this.generation;
        this.open();
        this.item = null;
        $('#detail-title').textContent = 'Loading…';
        this.clearInfo();
        this.image.removeAttribute('src');
        this.spinner.hidden = false;
        $('#stage-error').hidden = true;
        try {
            const item = await api.item(source, id);
            if (generation === this.generation) this.render(item);
        } catch (error) {
            if (generation !== this.generation) return;
            if (error.code === 'not_found') {
                this.missing(source);
                return;
            }
            this.spinner.hidden = true;
            $('#detail-title').textContent = 'Not available';
            this.showError(error.message);
        }
    }

    open() {
        if (this.isOpen) return;
        this.returnFocus = document.activeElement;
        this.element.hidden = false;
        document.body.classList.add('detail-open');
        $('#detail-close').focus();
    }

    close() {
        if (!this.isOpen) return;
        this.generation++;
        this.hideMenu();
        for (const dialog of $$('dialog[open]')) dialog.close();
        this.element.hidden = true;
        document.body.classList.remove('detail-open');
        stopPlayer();
        this.image.removeAttribute('src');
        const back = this.returnFocus;
        this.returnFocus = null;
        return back;
    }

    clearInfo() {
        clearInfo();
        clearKind();
        this.element.classList.remove('missing');
        $('#detail-missing').hidden = true;
        this.showNeighbours(null);
        $$('#detail-actions button').forEach((button) => { button.disabled = true; });
    }

    render(item, { source = item, link: address = itemURL(item) } = {}) {
        this.item = item;
        this.sourceItem = source;
        this.link = address;
        document.title = `${item.title} · Tessera`;
        $('#detail-title').textContent = item.title;
        this.element.classList.remove('missing');
        $('#detail-missing').hidden = true;
        renderInfo(item, { catalog: this.catalog, tagURL: this.tagURL });
        // A gallery's item is its own copy: the copies are a search's.
        renderCopies(item, source === item ? this.copiesOf?.(item.id) : null,
            { catalog: this.catalog, choose: (copy) => this.onChooseCopy?.(copy) });
        this.showNeighbours(source === item ? item : null);
        $$('#detail-actions button, #action-menu button').forEach((button) => { button.disabled = false; });
        renderKind(item);
        $('#detail-actions [data-action="original"]').hidden = !item.full || item.full.url === item.preview?.url;
        this.menu.querySelector('[data-action="source-page"]').hidden = !isWebURL(item.pageURL);
        this.image.alt = item.title;
        this.zoom.reset();
        this.showImage(item.preview ?? item.full ?? item.thumbnail, item.thumbnail);
    }

    /** Shows `placeholder` (usually cached) at once, then `image` when it has loaded. */
    showImage(image, placeholder) {
        const generation = this.generation;
        $('#stage-error').hidden = true;
        if (!image) {
            this.spinner.hidden = true;
            this.showError('This item has no image.');
            return;
        }
        this.spinner.hidden = false;
        if (placeholder && !this.image.getAttribute('src')) this.image.src = placeholder.url;
        const loader = new Image();
        loader.decoding = 'async';
        loader.onload = () => {
            if (generation !== this.generation) return;
            this.image.src = image.url;
            this.image.dataset.variant = image.url.split('/')[2] ?? '';
            this.spinner.hidden = true;
        };
        loader.onerror = async () => {
            if (generation !== this.generation) return;
            this.spinner.hidden = true;
            this.showError((await api.imageError(image.url)) ?? 'The image could not be loaded.');
        };
        loader.src = image.url;
    }

    showError(message) {
        const error = $('#stage-error');
        error.textContent = message;
        error.hidden = false;
    }

    async act(action, button) {
        const item = this.item;
        if (!item) return;
        switch (action) {
            case 'original':
                button.hidden = true;
                this.showImage(item.full, null);
                break;
            case 'download':
                await this.download(item, button);
                break;
            case 'share': {
                const url = new URL(this.link ?? itemURL(item), location.origin).href;
                if (navigator.share) {
                    try { await navigator.share({ title: item.title, url }); } catch { /* cancelled */ }
                } else if (await copyText(url)) {
                    toast('Link copied');
                }
                break;
            }
            // The credit is the server's (`item.credit`): rich text where the browser takes it (pastes with
            // its links) with the plain text beside it, or one form of it.
            case 'copy-text':
                if (await copyRich(item.credit.html, item.credit.text)) toast('Attribution copied');
                break;
            case 'copy-html':
                if (await copyText(item.credit.html)) toast('Attribution copied as HTML');
                break;
            case 'copy-markdown':
                if (await copyText(creditMarkdown(item.credit.html))) toast('Attribution copied as Markdown');
                break;
            case 'copy-xml':
                if (await copyText(creditXML(item))) toast('Attribution copied as XML');
                break;
            case 'metadata':
                this.showMetadata(item);
                break;
            case 'add-to-gallery':
                this.onAddToGallery?.(this.sourceItem ?? item);
                break;
            case 'source-page':
                if (isWebURL(item.pageURL)) open(item.pageURL, '_blank', 'noopener,noreferrer');
                break;
        }
    }

    async download(item, button) {
        const image = item.full ?? item.preview;
        if (!image) return;
        button.disabled = true;
        try {
            const blob = await api.imageBytes(image.url);
            const url = URL.createObjectURL(blob);
            const link = h('a', { href: url, download: fileName(item, blob.type) });
            document.body.append(link);
            link.click();
            link.remove();
            setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch (error) {
            toast(error.message);
        } finally {
            button.disabled = false;
        }
    }

    showMetadata(item) {
        const rows = metadataRows(item, this.catalog);
        $('#metadata-list')
            .replaceChildren(...rows.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));
        $('#metadata-sheet').showModal();
    }

    showMenu(x, y) {
        if (!this.item) return;
        this.menu.hidden = false;
        const box = this.menu.getBoundingClientRect();
        this.menu.style.left = `${Math.max(8, Math.min(x, innerWidth - box.width - 8))}px`;
        this.menu.style.top = `${Math.max(8, Math.min(y, innerHeight - box.height - 8))}px`;
        this.menu.querySelector('button:not([hidden])')?.focus();
    }

    hideMenu(restoreFocus = false) {
        if (this.menu.hidden) return;
        this.menu.hidden = true;
        if (restoreFocus) this.stage.focus();
    }

    menuKey(event) {
        const buttons = $$('button:not([hidden])', this.menu);
        const index = buttons.indexOf(document.activeElement);
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            const next = (index + (event.key === 'ArrowDown' ? 1 : -1) + buttons.length) % buttons.length;
            buttons[next].focus();
        }
    }
}

/** `blossom-bloom-flower-pixabay-195893.jpg`: readable, unique, with the extension of the bytes. */
export function fileName(item, type) {
    const slug = item.title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
        .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
    const id = nativeID(item).replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40);
    return [slug, item.source, id].filter(Boolean).join('-') + '.' + (EXTENSIONS[type] ?? 'jpg');
}
