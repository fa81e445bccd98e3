// The galleries side panel beside the results: every gallery as a drop target, so a result tile dragged
// onto one is added to it. It can be kept open (remembered) and opens by itself while a result is dragged.
import * as api from '../shared/api.js';
import { $, h, toast, itemCount } from '../shared/dom.js';
import { galleryURL } from '../shared/routes.js';
import { addItem } from './picker.js';
import { ITEM_TYPE, accepts, readDrop } from '../shared/dragdrop.js';
import { icon } from '../shared/icons.js';
import { addAsking, notAdded } from '../shared/neardup.js';

export class GalleryPanel {
    /** `items` finds a loaded result by id. */
    constructor(items) {
        this.items = items;
        this.panel = $('#gallery-panel');
        this.list = $('#gallery-panel-list');
        this.toggle = $('#panel-toggle');
        this.galleries = [];
        this.dragging = false;

        this.toggle.addEventListener('click', () => this.setOpen(this.panel.hidden));
        $('#panel-close').addEventListener('click', () => {
            this.setOpen(false);
            this.toggle.focus();
        });
        this.panel.addEventListener('keydown', (event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            this.setOpen(false);
            this.toggle.focus();
        });
        const results = $('#results');
        results.addEventListener('dragstart', (event) => this.start(event));
        results.addEventListener('dragend', () => this.end());
        this.list.addEventListener('dragover', (event) => this.over(event));
        this.list.addEventListener('dragleave', (event) => {
            const entry = event.target.closest?.('[data-gallery]');
            if (entry && !entry.contains(event.relatedTarget)) entry.classList.remove('over');
        });
        this.list.addEventListener('drop', (event) => this.drop(event));
        // A result dropped anywhere else is not a link to follow.
        document.addEventListener('dragover', (event) => {
            if (this.dragging && !event.defaultPrevented) {
                event.preventDefault();
                event.dataTransfer.dropEffect = 'none';
            }
        });
        this.setOpen(localStorage.getItem('tessera.panel') === 'open', { remember: false });
    }

    setOpen(open, { remember = true } = {}) {
        this.panel.hidden = !open;
        this.pinned = open;
        this.toggle.setAttribute('aria-expanded', String(open));
        document.body.classList.toggle('panel-open', open);
        if (remember) localStorage.setItem('tessera.panel', open ? 'open' : 'closed');
        if (open) this.refresh();
    }

    async refresh() {
        try {
            this.galleries = await api.writableGalleries();
            this.render();
        } catch (error) {
            this.list.replaceChildren(h('li', { class: 'muted' }, error.message));
        }
    }

    render() {
        if (!this.galleries.length) {
            this.list.replaceChildren(h('li', { class: 'panel-empty muted' },
                'No galleries yet. ', h('a', { href: '/galleries', 'data-nav': true }, 'Make one'), '.'));
            return;
        }
        this.list.replaceChildren(...this.galleries.map((gallery) => {
            const cover = gallery.cover
                ? h('img', { src: gallery.cover.url, alt: '', width: 40, height: 40, decoding: 'async' })
                : h('span', { class: 'picker-cover-empty' }, icon('image'));
            const link = {
                class: 'panel-entry', href: galleryURL(gallery.id), 'data-nav': true, 'data-gallery': gallery.id,
                draggable: 'false',
            };
            return h('li', {},
                h('a', link,
                    h('span', { class: 'picker-cover' }, cover),
                    h('span', { class: 'picker-text' },
                        h('span', { class: 'picker-name' }, gallery.name),
                        h('span', { class: 'muted count' }, itemCount(gallery.itemCount)))));
        }));
    }

    start(event) {
        const link = event.target.closest?.('a[data-item]');
        const item = link && this.items(link.dataset.item);
        if (!item) return;
        event.dataTransfer.setData(ITEM_TYPE, JSON.stringify(item));
        event.dataTransfer.effectAllowed = 'copyLink';
        this.dragging = true;
        // While dragging, the panel shows itself so there is somewhere to drop.
        if (this.panel.hidden) {
            this.panel.hidden = false;
            document.body.classList.add('panel-open');
            this.refresh();
        }
    }

    end() {
        this.dragging = false;
        for (const entry of this.list.querySelectorAll('.over')) entry.classList.remove('over');
        if (!this.pinned) {
            this.panel.hidden = true;
            document.body.classList.remove('panel-open');
        }
    }

    over(event) {
        const entry = event.target.closest?.('[data-gallery]');
        if (!entry || !accepts(event.dataTransfer)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        for (const other of this.list.querySelectorAll('.over')) if (other !== entry) other.classList.remove('over');
        entry.classList.add('over');
    }

    async drop(event) {
        const entry = event.target.closest?.('[data-gallery]');
        if (!entry || !accepts(event.dataTransfer)) return;
        event.preventDefault();
        entry.classList.remove('over');
        const gallery = this.galleries.find((candidate) => candidate.id === entry.dataset.gallery);
        const { adds } = readDrop(event.dataTransfer);
        this.end();
        if (!gallery || !adds.length) return;
        let added = 0;
        for (const add of adds) {
            if (add.item) added += (await addItem(gallery, add.item)) ? 1 : 0;
            else added += (await this.addOther(gallery, add)) ? 1 : 0;
        }
        if (added) this.refresh();
    }

    /** A link or file dropped on a gallery in the panel (from another site or the desktop). */
    async addOther(gallery, source) {
        try {
            await addAsking(gallery.id, source);
            toast(`Added to ${gallery.name}`);
            return true;
        } catch (error) {
            toast(notAdded(gallery.name, error));
            return false;
        }
    }
}
