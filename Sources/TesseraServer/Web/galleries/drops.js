// Drag and drop on a gallery's page: tiles reorder by dragging (an insertion marker shows where they will
// land) and are removed on the trash target; links, images and files dropped from outside are added where
// they are dropped, and so are images or image links pasted with Ctrl+V / ⌘V.
import { $, toast, isTyping } from '../shared/dom.js';
import { ITEM_TYPE, GALLERY_ITEM_TYPE, accepts, readDrop, slotAt, placeMarker } from '../shared/dragdrop.js';

export class GalleryDrops {
    constructor(view) {
        this.view = view;
        this.area = $('#gallery-drop');
        this.marker = $('#drop-marker');
        this.trash = $('#trash-target');
        /** The id of the tile being dragged in this page, if any. */
        this.dragging = null;

        view.grid.addEventListener('dragstart', (event) => this.start(event));
        view.grid.addEventListener('dragend', () => this.end());
        document.addEventListener('dragover', (event) => this.over(event));
        document.addEventListener('drop', (event) => this.drop(event));
        document.addEventListener('paste', (event) => this.paste(event));
    }

    /** Drops count while the gallery is on screen, not under the detail view or a dialog. */
    get active() {
        return this.view.isShown && !document.body.classList.contains('detail-open')
            && !document.querySelector('dialog[open]');
    }

    start(event) {
        const tile = event.target.closest?.('.tile:not(.pending)');
        if (!tile || this.view.readOnly) return;
        const galleryItem = this.view.items.get(tile.dataset.id);
        this.dragging = tile.dataset.id;
        event.dataTransfer.effectAllowed = 'copyMove';
        event.dataTransfer.setData(GALLERY_ITEM_TYPE, tile.dataset.id);
        // Another tab's gallery (or its side panel) can take the item too.
        if (galleryItem) event.dataTransfer.setData(ITEM_TYPE, JSON.stringify(galleryItem.item));
        this.view.menu.close(false);
        // After the browser has taken its picture of the tile: dim it in place.
        requestAnimationFrame(() => { if (this.dragging) tile.classList.add('dragging'); });
        this.trash.hidden = false;
    }

    over(event) {
        if (!this.active) return;
        const transfer = event.dataTransfer;
        if (this.dragging) {
            event.preventDefault();
            const onTrash = this.trash.contains(event.target);
            this.trash.classList.toggle('over', onTrash);
            transfer.dropEffect = onTrash || this.area.contains(event.target) ? 'move' : 'none';
            this.showMarker(event.target, event.clientX, event.clientY);
            return;
        }
        if (!accepts(transfer)) return;
        event.preventDefault();
        transfer.dropEffect = this.view.readOnly ? 'none' : 'copy';
        if (this.view.readOnly) return;
        this.area.classList.add('drop-active');
        this.showMarker(event.target, event.clientX, event.clientY, { outside: 'end' });
        // No event says a drag left the window: the highlight goes when the dragovers stop.
        clearTimeout(this.leaveTimer);
        this.leaveTimer = setTimeout(() => this.clear(), 250);
    }

    drop(event) {
        if (!this.active) return;
        const transfer = event.dataTransfer;
        if (this.dragging) {
            event.preventDefault();
            const id = this.dragging;
            this.dropTile(id, event.target, event.clientX, event.clientY);
            this.end();
            return;
        }
        if (!accepts(transfer)) return;
        event.preventDefault();
        const index = this.indexAt(event.target, event.clientX, event.clientY);
        this.clear();
        if (this.view.readOnly) {
            toast('Restore this gallery before adding to it.');
            return;
        }
        this.add(readDrop(transfer), index);
    }

    paste(event) {
        if (!this.active || isTyping(event) || this.view.readOnly || !event.clipboardData) return;
        const found = readDrop(event.clipboardData);
        if (!found.adds.length && !found.refused.length) return;
        event.preventDefault();
        this.add(found, null);
    }

    add({ adds, refused }, index) {
        if (refused.length) {
            const names = refused.map((name) => `“${name}”`).join(', ');
            const one = refused.length === 1;
            toast(`${names} ${one ? 'is' : 'are'} not an image, so ${one ? 'it was' : 'they were'} not added.`);
        } else if (!adds.length) {
            toast('Nothing to add: drop images, image files or links to images.');
        }
        if (adds.length) this.view.addMany(adds, index);
    }

    /** A tile of this page dropped on `target` at (x, y): removed on the trash, moved on the grid. */
    dropTile(id, target, x, y) {
        if (this.trash.contains(target)) this.view.remove(id);
        else if (this.area.contains(target)) this.view.move(id, this.indexAt(target, x, y, id));
    }

    /**
     * Where a drop on `target` at (x, y) lands, as the item index after the change: the real tiles before
     * the insertion slot, placeholders and the dragged tile itself not counted. Outside the grid: the end.
     */
    indexAt(target, x, y, draggedID = null) {
        const children = [...this.view.grid.children];
        const slot = this.area.contains(target) ? slotAt(children, x, y) : children.length;
        return children.slice(0, slot)
            .filter((child) => !child.classList.contains('pending') && child.dataset.id !== draggedID).length;
    }

    /**
     * The insertion marker for (x, y) over `target`; outside the grid, hidden (or at the end, for drops from
     * outside).
     */
    showMarker(target, x, y, { outside = 'hide' } = {}) {
        const children = [...this.view.grid.children];
        const inside = this.area.contains(target);
        if (!inside && outside === 'hide') {
            this.marker.hidden = true;
            return;
        }
        placeMarker(this.marker, this.area, children, inside ? slotAt(children, x, y) : children.length);
    }

    clear() {
        clearTimeout(this.leaveTimer);
        this.marker.hidden = true;
        this.area.classList.remove('drop-active');
    }

    end() {
        for (const tile of this.view.grid.querySelectorAll('.dragging')) tile.classList.remove('dragging');
        this.dragging = null;
        this.trash.hidden = true;
        this.trash.classList.remove('over');
        this.clear();
    }
}
