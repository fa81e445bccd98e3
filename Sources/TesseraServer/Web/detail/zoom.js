// Zoom and pan for the detail image: wheel and pinch zoom around the pointer, drag to pan, double-click or
// double-tap toggles, keyboard + − 0 and arrows. The image is laid out to fit; zoom is a transform on top.

const MIN = 1;
const MAX = 8;

export class Zoom {
    constructor(stage, image) {
        this.stage = stage;
        this.image = image;
        this.pointers = new Map();
        this.reset();

        stage.addEventListener('wheel', (event) => {
            event.preventDefault();
            this.zoomAt(this.scale * Math.exp(-event.deltaY * 0.0015), this.point(event));
        }, { passive: false });
        // A double tap is handled in `down`; Chromium then also fires a dblclick for it, which would undo it.
        stage.addEventListener('dblclick', (event) => {
            if (event.timeStamp - (this.tapToggled ?? -Infinity) < 800) return;
            this.toggle(this.point(event));
        });
        stage.addEventListener('pointerdown', (event) => this.down(event));
        stage.addEventListener('pointermove', (event) => this.move(event));
        for (const type of ['pointerup', 'pointercancel', 'pointerleave']) {
            stage.addEventListener(type, (event) => this.up(event));
        }
        stage.addEventListener('keydown', (event) => this.key(event));
    }

    reset() {
        this.scale = 1;
        this.x = 0;
        this.y = 0;
        this.render();
    }

    /** A point in the stage's coordinates. */
    point(event) {
        const box = this.stage.getBoundingClientRect();
        return { x: event.clientX - box.left, y: event.clientY - box.top };
    }

    center() {
        return { x: this.stage.clientWidth / 2, y: this.stage.clientHeight / 2 };
    }

    /** Zooms keeping the image point under `at` where it is. */
    zoomAt(scale, at = this.center()) {
        const next = Math.min(MAX, Math.max(MIN, scale));
        const originX = this.image.offsetLeft;
        const originY = this.image.offsetTop;
        const ratio = next / this.scale;
        this.x = at.x - originX - ratio * (at.x - originX - this.x);
        this.y = at.y - originY - ratio * (at.y - originY - this.y);
        this.scale = next;
        if (next === MIN) {
            this.x = 0;
            this.y = 0;
        }
        this.render();
    }

    zoomIn() { this.zoomAt(this.scale * 1.5); }
    zoomOut() { this.zoomAt(this.scale / 1.5); }

    toggle(at) {
        this.zoomAt(this.scale > 1.05 ? 1 : 2.5, at);
    }

    render() {
        this.image.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
        this.stage.dataset.scale = this.scale.toFixed(2);
    }

    down(event) {
        this.pointers.set(event.pointerId, this.point(event));
        if (this.pointers.size === 1) {
            this.last = this.point(event);
            // Double-tap on touch screens (dblclick does not fire for touches everywhere).
            const now = performance.now();
            if (event.pointerType === 'touch' && now - (this.lastTap ?? 0) < 300) {
                this.toggle(this.last);
                this.tapToggled = event.timeStamp;
                this.lastTap = 0;
            } else {
                this.lastTap = now;
            }
        }
        if (this.pointers.size === 2) this.pinch = this.spread();
        this.stage.setPointerCapture?.(event.pointerId);
    }

    move(event) {
        if (!this.pointers.has(event.pointerId)) return;
        const point = this.point(event);
        this.pointers.set(event.pointerId, point);
        if (this.pointers.size === 2 && this.pinch) {
            const spread = this.spread();
            this.zoomAt(this.scale * (spread.distance / this.pinch.distance), spread.middle);
            this.pinch = spread;
        } else if (this.pointers.size === 1 && this.scale > 1) {
            this.x += point.x - this.last.x;
            this.y += point.y - this.last.y;
            this.last = point;
            this.stage.classList.add('dragging');
            this.render();
        }
    }

    up(event) {
        this.pointers.delete(event.pointerId);
        if (this.pointers.size < 2) this.pinch = null;
        if (this.pointers.size === 1) this.last = [...this.pointers.values()][0];
        if (this.pointers.size === 0) this.stage.classList.remove('dragging');
    }

    spread() {
        const [a, b] = [...this.pointers.values()];
        return { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    }

    key(event) {
        const step = 60;
        const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
        if (event.key === '+' || event.key === '=') this.zoomIn();
        else if (event.key === '-' || event.key === '_') this.zoomOut();
        else if (event.key === '0') this.reset();
        else if (moves[event.key] && this.scale > 1) {
            this.x += moves[event.key][0];
            this.y += moves[event.key][1];
            this.render();
        } else return;
        event.preventDefault();
    }
}
