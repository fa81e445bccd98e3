// "Add to gallery": a dialog listing the galleries (most recently changed first) and "New gallery…".
// Choosing one adds the item there; the dialog closes at once and a toast says how it went.
import * as api from '../shared/api.js';
import { $, h, toast, itemCount } from '../shared/dom.js';
import { go } from '../shared/router.js';
import { galleryURL } from '../shared/routes.js';
import { nameProblem } from '../shared/galleryname.js';
import { icon } from '../shared/icons.js';
import { addAsking, Declined, notAdded } from '../shared/neardup.js';
import { keepForReference } from '../shared/keepdialog.js';

export class GalleryPicker {
    constructor() {
        this.dialog = $('#gallery-picker');
        this.list = $('#picker-list');
        this.status = $('#picker-status');
        this.form = $('#picker-new');
        this.field = $('#picker-name');
        this.message = $('#picker-message');
        this.list.addEventListener('click', (event) => {
            const choice = event.target.closest('button[data-gallery]');
            if (choice) this.choose(this.galleries.find((gallery) => gallery.id === choice.dataset.gallery));
        });
        $('#picker-new-toggle').addEventListener('click', () => this.showForm(true));
        this.form.addEventListener('submit', (event) => {
            event.preventDefault();
            this.createAndChoose();
        });
        this.field.addEventListener('keydown', (event) => {
            // Escape leaves the name field first, then (a second press) the dialog.
            if (event.key === 'Escape') {
                event.preventDefault();
                this.showForm(false);
                $('#picker-new-toggle').focus();
            }
        });
        this.field.addEventListener('input', () => { this.message.hidden = true; });
        this.galleries = [];
    }

    /** Opens the picker for a search result (an `Item`). */
    async open(item) {
        this.item = item;
        this.holders = null;
        this.showForm(false);
        this.list.replaceChildren();
        this.status.textContent = 'Loading galleries…';
        this.status.hidden = false;
        this.dialog.showModal();
        $('#picker-new-toggle').focus();
        try {
            const [galleries, holding] = await Promise.all([
                api.writableGalleries(), api.galleriesHolding([item.id]).catch(() => ({})),
            ]);
            this.galleries = galleries;
            this.holders = new Set((holding[item.id] ?? []).map((gallery) => gallery.id));
            if (this.item !== item || !this.dialog.open) return;
            this.status.hidden = this.galleries.length > 0;
            this.status.textContent = 'No galleries yet: make the first one.';
            this.list.replaceChildren(...this.galleries.map((gallery) => this.entry(gallery)));
            (this.list.querySelector('button') ?? $('#picker-new-toggle')).focus();
        } catch (error) {
            this.status.textContent = error.message;
        }
    }

    entry(gallery) {
        const cover = gallery.cover
            ? h('img', { src: gallery.cover.url, alt: '', width: 48, height: 48, decoding: 'async' })
            : h('span', { class: 'picker-cover-empty' }, icon('image'));
        const holds = this.holders?.has(gallery.id);
        return h('li', {},
            h('button', { type: 'button', class: 'picker-entry', 'data-gallery': gallery.id, 'data-holds': holds },
                h('span', { class: 'picker-cover' }, cover),
                h('span', { class: 'picker-text' },
                    h('span', { class: 'picker-name' }, gallery.name),
                    h('span', { class: 'muted' }, itemCount(gallery.itemCount))),
                holds ? h('span', { class: 'picker-holds' }, '✓ Already here') : null));
    }

    showForm(shown) {
        this.form.hidden = !shown;
        $('#picker-new-toggle').hidden = shown;
        this.message.hidden = true;
        if (shown) {
            this.field.value = '';
            this.field.focus();
        }
    }

    async createAndChoose() {
        const problem = nameProblem(this.field.value);
        if (problem) {
            this.message.textContent = problem;
            this.message.hidden = false;
            this.field.focus();
            return;
        }
        try {
            const gallery = await api.createGallery(this.field.value.trim());
            this.choose(gallery);
        } catch (error) {
            this.message.textContent = error.message;
            this.message.hidden = false;
        }
    }

    async choose(gallery) {
        if (!gallery) return;
        const item = this.item;
        this.dialog.close();
        // The picker asked which galleries hold the item when it opened: no need to ask again.
        await addItem(gallery, item, this.holders);
    }
}

/**
 * Adds a search result to a gallery, saying so in a toast (with a way to go and see it); one the gallery
 * already holds is not added twice, and the toast says so. Tells the page (`tessera:held`) when it is there.
 * `holders` (ids of the galleries holding the item) when the caller knows them, else they are asked for.
 */
export async function addItem(gallery, item, holders = null) {
    const known = holders ?? new Set(
        ((await api.galleriesHolding([item.id]).catch(() => ({})))[item.id] ?? []).map((holder) => holder.id));
    if (known.has(gallery.id)) {
        toast(`Already in ${gallery.name}`, { action: 'View', onAction: () => go(galleryURL(gallery.id)) });
        return false;
    }
    // A restricted item's question comes before the "Adding…" toast, which would otherwise sit under it.
    if (!(await keepForReference(item))) {
        toast(notAdded(gallery.name, new Declined()));
        return false;
    }
    toast(`Adding to ${gallery.name}…`);
    try {
        await addAsking(gallery.id, { item, kept: true });
        toast(`Added to ${gallery.name}`, { action: 'View', onAction: () => go(galleryURL(gallery.id)) });
        document.dispatchEvent(new CustomEvent('tessera:held', { detail: { id: item.id, gallery } }));
        return true;
    } catch (error) {
        toast(notAdded(gallery.name, error));
        return false;
    }
}
