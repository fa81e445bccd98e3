// Reordering with a finger, where HTML5 drag and drop does not start: hold a tile for a moment (it lifts),
// then move it. The same insertion marker and trash target as with a mouse; near the screen's top or
// bottom edge the page scrolls. A finger that moves before the tile lifts is scrolling, and scrolls.
const HOLD_MS = 420;
const SLOP_PX = 10;
const EDGE_PX = 70;

export class TouchReorder {
    /** `drops` is the page's GalleryDrops: its marker, trash and drop rules are shared. */
    constructor(view, drops) {
        this.view = view;
        this.drops = drops;
        this.press = null;
        this.drag = null;
        const grid = view.grid;
        grid.addEventListener('pointerdown', (event) => this.down(event));
        grid.addEventListener('pointermove', (event) => this.move(event));
        grid.addEventListener('pointerup', (event) => this.up(event));
        grid.addEventListener('pointercancel', () => this.cancel());
        // Once a tile is lifted the finger drags it, not the page.
        grid.addEventListener('touchmove', (event) => { if (this.drag) event.preventDefault(); }, { passive: false });
        // A long press would open the link's own menu; the click after a drop must not open the item.
        grid.addEventListener('contextmenu', (event) => {
            if (this.press?.lifted || this.drag) event.preventDefault();
        });
        // (Only a click with no press of its own: when the finger moved far, no click comes at all.)
        grid.addEventListener('click', (event) => {
            if (this.dropped) {
                this.dropped = false;
                event.preventDefault();
                event.stopImmediatePropagation();
            }
        }, true);
        grid.addEventListener('pointerdown', () => { this.dropped = false; }, true);
    }

    down(event) {
        if (event.pointerType !== 'touch' || !event.isPrimary || this.view.readOnly) return;
        const tile = event.target.closest('.tile:not(.pending)');
        if (!tile || event.target.closest('.tile-menu')) return;
        // A finger must not start the browser's own drag of the link or image as well.
        const draggables = [...tile.querySelectorAll('a, img')];
        for (const element of draggables) element.draggable = false;
        this.press = { tile, draggables, x: event.clientX, y: event.clientY, lifted: false };
        this.press.timer = setTimeout(() => this.lift(), HOLD_MS);
    }

    lift() {
        const { tile, x, y } = this.press;
        this.press.lifted = true;
        const box = tile.getBoundingClientRect();
        const ghost = tile.cloneNode(true);
        ghost.classList.add('drag-ghost');
        ghost.removeAttribute('role');
        ghost.setAttribute('aria-hidden', 'true');
        ghost.style.width = `${box.width}px`;
        ghost.style.height = `${box.height}px`;
        document.body.append(ghost);
        this.drag = { tile, ghost, dx: x - box.left, dy: y - box.top, x, y };
        this.place(x, y);
        tile.classList.add('dragging');
        this.view.menu.close(false);
        this.drops.trash.hidden = false;
        // A small tap of haptics where allowed (not before the page's first tap).
        if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(12);
    }

    move(event) {
        if (!this.press || event.pointerType !== 'touch') return;
        if (!this.drag) {
            if (Math.hypot(event.clientX - this.press.x, event.clientY - this.press.y) > SLOP_PX) this.cancel();
            return;
        }
        this.drag.x = event.clientX;
        this.drag.y = event.clientY;
        this.place(event.clientX, event.clientY);
        this.track();
        this.autoScroll();
    }

    up(event) {
        if (!this.press) return;
        clearTimeout(this.press.timer);
        if (this.drag) {
            const id = this.drag.tile.dataset.id;
            const under = document.elementFromPoint(event.clientX, event.clientY);
            this.dropped = true;
            this.finish();
            if (under) this.drops.dropTile(id, under, event.clientX, event.clientY);
        } else {
            this.finish();
        }
        this.press = null;
    }

    cancel() {
        if (!this.press) return;
        clearTimeout(this.press.timer);
        this.finish();
        this.press = null;
    }

    finish() {
        for (const element of this.press?.draggables ?? []) element.draggable = true;
        cancelAnimationFrame(this.scrollFrame);
        this.scrollFrame = 0;
        if (!this.drag) return;
        this.drag.ghost.remove();
        this.drag = null;
        this.drops.end();
    }

    place(x, y) {
        const { ghost, dx, dy } = this.drag;
        ghost.style.transform = `translate(${x - dx}px, ${y - dy}px) scale(1.06)`;
    }

    /** Marker or highlighted trash for what is under the finger (the ghost lets events through). */
    track() {
        const { x, y } = this.drag;
        const under = document.elementFromPoint(x, y);
        const onTrash = Boolean(under && this.drops.trash.contains(under));
        this.drops.trash.classList.toggle('over', onTrash);
        this.drops.showMarker(under, x, y);
    }

    autoScroll() {
        if (this.scrollFrame) return;
        const step = () => {
            this.scrollFrame = 0;
            if (!this.drag) return;
            const { y } = this.drag;
            let speed = 0;
            if (y < EDGE_PX) speed = -(EDGE_PX - y) / 4;
            else if (y > innerHeight - EDGE_PX) speed = (y - innerHeight + EDGE_PX) / 4;
            if (!speed) return;
            scrollBy(0, speed);
            this.track();
            this.scrollFrame = requestAnimationFrame(step);
        };
        this.scrollFrame = requestAnimationFrame(step);
    }
}
