// The galleries list (`/galleries`): create, rename in place, delete to Recently deleted (with Undo), and
// from there restore or delete for good.
import * as api from '../shared/api.js';
import { $, h, toast, itemCount } from '../shared/dom.js';
import { galleryURL } from '../shared/routes.js';
import { nameProblem } from '../shared/galleryname.js';
import { renamable } from './rename.js';
import { confirmAction } from '../shared/confirm.js';
import { icon } from '../shared/icons.js';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
/** "3 minutes ago", "yesterday": when something happened, as people say it. */
export function ago(iso) {
    const seconds = (Date.parse(iso) - Date.now()) / 1000;
    if (!Number.isFinite(seconds)) return '';
    const units = [['year', 31_536_000], ['month', 2_592_000], ['day', 86_400], ['hour', 3600], ['minute', 60]];
    for (const [unit, size] of units) {
        if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
    }
    return 'just now';
}

export class GalleriesView {
    constructor() {
        this.element = $('#galleries-view');
        this.cards = $('#gallery-cards');
        this.sharedSection = $('#shared-galleries');
        this.sharedCards = $('#shared-cards');
        this.deletedSection = $('#deleted-galleries');
        this.deletedList = $('#deleted-list');
        this.status = $('#galleries-status');
        this.form = $('#new-gallery');
        this.field = $('#new-gallery-name');
        this.message = $('#new-gallery-message');
        this.generation = 0;

        this.form.addEventListener('submit', (event) => {
            event.preventDefault();
            this.create();
        });
        this.field.addEventListener('input', () => { if (!nameProblem(this.field.value)) this.hideMessage(); });
        this.element.addEventListener('click', (event) => {
            const button = event.target.closest('button[data-action]');
            const row = button?.closest('[data-id]');
            if (!row) return;
            const gallery = this.galleries.get(row.dataset.id);
            if (!gallery) return;
            if (button.dataset.action === 'delete') this.remove(gallery);
            else if (button.dataset.action === 'restore') this.restore(gallery);
            else if (button.dataset.action === 'purge') this.purge(gallery);
        });
        // Another tab (or the CLI) may have changed things while this one was in the background.
        document.addEventListener('visibilitychange', () => {
            const renaming = this.element.querySelector('.rename');
            if (document.visibilityState === 'visible' && !this.element.hidden && !renaming) this.load();
        });
        /** Every gallery shown, live or deleted, by id. */
        this.galleries = new Map();
    }

    show() {
        this.element.hidden = false;
        document.title = 'Galleries · Tessera';
        return this.load();
    }

    hide() {
        this.element.hidden = true;
        this.generation++;
    }

    async load() {
        const generation = ++this.generation;
        if (!this.galleries.size) this.showStatus('Loading galleries…');
        try {
            const [live, deleted] = await Promise.all([api.galleries(), api.galleries({ deleted: true })]);
            if (generation !== this.generation) return;
            this.galleries = new Map([...live, ...deleted].map((gallery) => [gallery.id, gallery]));
            // With accounts each gallery says the user's role: "Mine" are those they own, the rest shared.
            const mine = live.filter((gallery) => !gallery.role || gallery.role === 'owner');
            const shared = live.filter((gallery) => gallery.role && gallery.role !== 'owner');
            this.cards.replaceChildren(...mine.map((gallery) => this.card(gallery)));
            this.sharedCards.replaceChildren(...shared.map((gallery) => this.card(gallery)));
            this.deletedList.replaceChildren(...deleted.map((gallery) => this.deletedRow(gallery)));
            this.updateEmpty();
        } catch (error) {
            if (generation === this.generation) this.showStatus(error.message, true);
        }
    }

    // MARK: - Elements

    card(gallery) {
        const cover = gallery.cover
            ? h('img', {
                src: gallery.cover.url, alt: '', width: gallery.cover.width, height: gallery.cover.height,
                decoding: 'async',
            })
            : h('span', { class: 'card-empty' }, icon('image'));
        const name = h('button',
            { type: 'button', class: 'name-button', title: 'Rename', 'aria-label': `Rename ${gallery.name}` },
            gallery.name);
        const shared = gallery.role && gallery.role !== 'owner';
        if (gallery.role === 'viewer') name.disabled = true;
        else renamable(name, { save: (value) => this.rename(gallery, value) });
        const can = gallery.role === 'viewer' ? 'you can view' : 'you can edit';
        const sharing = shared ? ` · ${gallery.owner}’s, ${can}` : '';
        return h('li', { class: 'card', role: 'listitem', 'data-id': gallery.id },
            h('a', { class: 'card-cover', href: galleryURL(gallery.id), 'data-nav': true },
                cover, h('span', { class: 'visually-hidden' }, gallery.name)),
            h('div', { class: 'card-body' },
                h('h2', { class: 'card-name' }, name),
                h('p', { class: 'card-meta' }, itemCount(gallery.itemCount) + sharing)),
            // Only the owner deletes a gallery.
            shared ? null : h('button', {
                type: 'button', class: 'icon card-delete', 'data-action': 'delete',
                'aria-label': `Delete ${gallery.name}`, title: 'Delete',
            }, icon('trash')));
    }

    deletedRow(gallery) {
        return h('li', { class: 'deleted-row', 'data-id': gallery.id },
            h('div', { class: 'deleted-text' },
                h('span', { class: 'deleted-name' }, gallery.name),
                h('span', { class: 'muted' }, `${itemCount(gallery.itemCount)} · deleted ${ago(gallery.deletedAt)}`)),
            h('button',
                { type: 'button', 'data-action': 'restore', 'aria-label': `Restore ${gallery.name}` },
                'Restore'),
            h('button', {
                type: 'button', class: 'danger', 'data-action': 'purge',
                'aria-label': `Delete ${gallery.name} forever`,
            }, 'Delete forever'));
    }

    updateEmpty() {
        const sharedCount = this.sharedCards.childElementCount;
        this.sharedSection.hidden = sharedCount === 0;
        $('#mine-heading').hidden = sharedCount === 0;
        const none = this.cards.childElementCount === 0 && sharedCount === 0;
        if (none) {
            this.showStatus(
                'No galleries yet. Name one above, then add to it from search results with “Add to gallery”.');
        } else {
            this.status.hidden = true;
        }
        this.cards.hidden = this.cards.childElementCount === 0;
        this.deletedSection.hidden = this.deletedList.childElementCount === 0;
    }

    showStatus(text, error = false) {
        this.status.textContent = text;
        this.status.classList.toggle('error', error);
        this.status.hidden = false;
    }

    // MARK: - Actions

    async create() {
        const problem = nameProblem(this.field.value);
        if (problem) {
            this.showMessage(problem);
            this.field.focus();
            return;
        }
        this.hideMessage();
        const button = this.form.querySelector('button');
        button.disabled = true;
        try {
            const gallery = await api.createGallery(this.field.value.trim());
            this.galleries.set(gallery.id, gallery);
            this.cards.prepend(this.card(gallery));
            this.field.value = '';
            this.updateEmpty();
            toast(`Created ${gallery.name}`);
        } catch (error) {
            this.showMessage(error.message);
        } finally {
            button.disabled = false;
        }
    }

    async rename(gallery, name) {
        const renamed = await api.renameGallery(gallery.id, name);
        Object.assign(gallery, renamed);
        const card = this.element.querySelector(`.card[data-id="${CSS.escape(gallery.id)}"]`);
        card?.querySelector('.name-button')?.setAttribute('aria-label', `Rename ${renamed.name}`);
        card?.querySelector('.card-delete')?.setAttribute('aria-label', `Delete ${renamed.name}`);
        if (card) card.querySelector('.card-cover .visually-hidden').textContent = renamed.name;
    }

    async remove(gallery) {
        const card = this.cards.querySelector(`[data-id="${CSS.escape(gallery.id)}"]`);
        const next = card?.nextElementSibling ?? card?.previousElementSibling;
        try {
            const deleted = await api.deleteGallery(gallery.id);
            Object.assign(gallery, deleted);
            card?.remove();
            this.deletedList.prepend(this.deletedRow(gallery));
            this.updateEmpty();
            // Focus stays in the list rather than falling to the page's start.
            (next?.querySelector('.name-button') ?? this.field).focus();
            toast(`Moved ${gallery.name} to Recently deleted`,
                { action: 'Undo', onAction: () => this.restore(gallery) });
        } catch (error) {
            toast(error.message);
        }
    }

    async restore(gallery) {
        try {
            const restored = await api.restoreGallery(gallery.id);
            Object.assign(gallery, restored);
            this.deletedList.querySelector(`[data-id="${CSS.escape(gallery.id)}"]`)?.remove();
            const shown = this.cards.querySelector(`[data-id="${CSS.escape(gallery.id)}"]`);
            if (!shown) this.cards.prepend(this.card(gallery));
            this.updateEmpty();
            toast(`Restored ${gallery.name}`);
        } catch (error) {
            toast(error.message);
        }
    }

    async purge(gallery) {
        const sure = await confirmAction({
            title: `Delete “${gallery.name}” forever?`,
            message: `Its ${itemCount(gallery.itemCount)} and their saved images are removed. This cannot be undone.`,
            confirm: 'Delete forever',
        });
        const row = this.deletedList.querySelector(`[data-id="${CSS.escape(gallery.id)}"]`);
        if (!sure) {
            row?.querySelector('[data-action="purge"]')?.focus();
            return;
        }
        try {
            await api.deleteGallery(gallery.id, { permanent: true });
            const next = row?.nextElementSibling ?? row?.previousElementSibling;
            row?.remove();
            this.galleries.delete(gallery.id);
            this.updateEmpty();
            (next?.querySelector('button') ?? this.field).focus();
            toast(`Deleted ${gallery.name} forever`);
        } catch (error) {
            toast(error.message);
        }
    }

    showMessage(text) {
        this.message.textContent = text;
        this.message.hidden = false;
        this.field.setAttribute('aria-invalid', 'true');
    }

    hideMessage() {
        this.message.hidden = true;
        this.field.removeAttribute('aria-invalid');
    }
}
