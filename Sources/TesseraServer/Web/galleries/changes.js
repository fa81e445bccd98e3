// A gallery page's own changes: add (with placeholders), move, remove (with Undo), rename, restore. They
// are shown at once and sent with `mutate`, which keeps the page's revision in step (gallery.js).
import * as api from '../shared/api.js';
import { $, toast } from '../shared/dom.js';
import * as tiles from './tiles.js';
import { addAsking, Declined } from '../shared/neardup.js';

export const changes = {
    /**
     * Adds each source (`{item}`, `{url}` or `{file}`) in turn from `index` on (null: at the end), to this
     * gallery or (an Undo after the user moved on) to `galleryID`. Placeholders show while this gallery is
     * on screen; what the user started carries on if they leave.
     */
    async addMany(sources, index, galleryID = this.id) {
        const visit = galleryID === this.id ? this.visit : -1;
        const shown = () => visit === this.visit;
        if (shown() && this.readOnly) {
            toast('Restore this gallery before adding to it.');
            return;
        }
        const placeholders = sources.map((source) => tiles.placeholderTile(label(source)));
        if (shown()) {
            const before = index == null ? null : tiles.itemTiles(this.grid)[index] ?? null;
            for (const placeholder of placeholders) this.grid.insertBefore(placeholder, before);
            this.updateCount();
        }
        let next = index;
        for (const [n, source] of sources.entries()) {
            const placeholder = placeholders[n];
            const at = shown() ? tiles.itemsBefore(this.grid, placeholder) : next;
            try {
                const { item } = await this.addOne(galleryID, source, at);
                if (next != null) next++;
                if (!shown()) continue;
                this.items.set(item.id, item);
                if (this.tileElement(item.id) || !placeholder.isConnected) placeholder.remove();
                else placeholder.replaceWith(this.tileFor(item));
            } catch (error) {
                placeholder.remove();
                if (!(error instanceof Declined)) toast(`${label(source)} was not added: ${error.message}`);
            }
            if (shown()) this.updateCount();
        }
    },

    addOne(galleryID, source, index) {
        return this.mutate(() => addAsking(galleryID, { ...source, index }), galleryID);
    },

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
    },

    async remove(id, { focusNeighbour = false } = {}) {
        const galleryItem = this.items.get(id);
        const element = this.tileElement(id);
        if (!galleryItem || !element || this.readOnly) return;
        const index = this.indexOf(id);
        const neighbour = element.nextElementSibling ?? element.previousElementSibling;
        this.items.delete(id);
        this.removeTile(element);
        if (focusNeighbour) (neighbour?.querySelector('a') ?? $('#gallery-upload')).focus();
        const { item } = galleryItem;
        const galleryID = this.id;
        try {
            await this.mutate(() => api.removeFromGallery(galleryID, id), galleryID);
            // Undo adds the same item again; the server keeps a removed item's copy until it restarts, so even
            // an import (whose image is that copy) comes back. It puts back what the person just removed, so it
            // never asks about another copy of the picture still in the gallery, nor whether to keep it.
            const again = { item, allowNearDuplicate: true, kept: true };
            toast(`Removed “${item.title}”`,
                { action: 'Undo', onAction: () => this.addMany([again], index, galleryID) });
        } catch (error) {
            toast(error.message);
        }
    },

    removeTile(element) {
        if (element.contains(document.activeElement)) this.menu.close(false);
        element.remove();
        this.updateCount();
    },

    menuAction(action, id, button) {
        if (action === 'remove') {
            this.remove(id, { focusNeighbour: true });
            return;
        }
        // The move is shown at once; the menu button moved with its tile, so Move right again is one Enter away.
        this.move(id, this.indexOf(id) + (action === 'left' ? -1 : 1));
        button?.focus();
    },

    async rename(name) {
        const renamed = await this.mutate(() => api.renameGallery(this.id, name));
        this.gallery.name = renamed.name;
        this.showMeta();
    },

    async restore() {
        try {
            const restored = await this.mutate(() => api.restoreGallery(this.id));
            this.gallery.deletedAt = restored.deletedAt;
            this.showMeta();
            toast(`Restored ${restored.name}`);
        } catch (error) {
            toast(error.message);
        }
    },
};

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
