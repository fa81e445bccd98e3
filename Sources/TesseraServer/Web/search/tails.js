// The rows of "All" in two parts: a row draws at once the tiles that fill it, and the rest of its results (its
// tail) once the search is done and the browser is idle, or as soon as something needs them: the row scrolled,
// focused or paged, a tag filter, a group folding a picture in it. A page of "All" holds about 160 results of which
// the window shows a tenth; drawing them all as the sections arrive took the page's main thread from the
// pictures the person is looking at (docs/web.md, "Rows in two parts").
import { idleCallback, cancelIdle } from '../shared/dom.js';

/**
 * How many of `items` a row draws at once: those that fill its width, the last one cut by its edge. `columns`
 * is the layout's `--columns`: a strip of photos is `columns × 1.25 + 0.4` of its own heights wide, and each
 * photo as wide as its shape (`ratioOf(item)`, width over height) makes it; a strip of covers shows
 * `columns + 0.4` of them. The next one is drawn with the tail, which the row's first scroll draws; drawing it
 * at once, out of sight, painted the 20th thumbnail of a search later (docs/duplicates.md, "Return to 20
 * thumbnails painted").
 */
export function leadingCount(items, columns, { justified, ratioOf }) {
    if (!justified) return Math.min(items.length, Math.ceil(columns + 0.4));
    const width = columns * 1.25 + 0.4;
    let filled = 0;
    let count = 0;
    while (count < items.length && filled < width) filled += ratioOf(items[count++]);
    return Math.min(items.length, count);
}

export class RowTails {
    /** `draw(strip, sectionID, items)` makes and inserts the tiles of a tail. */
    constructor(draw) {
        this.draw = draw;
        this.reset();
    }

    reset() {
        if (this.idle) cancelIdle(this.idle);
        this.idle = 0;
        /** Strip → { sectionID, items } not drawn yet, in order. */
        this.rows = new Map();
        /** Item id → the strip whose tail holds it. */
        this.strips = new Map();
    }

    /** Keeps `items` to be drawn at the end of `strip` later; a scroll or focus in the row draws them at once. */
    hold(strip, sectionID, items) {
        if (!items.length) return;
        const row = this.rows.get(strip);
        if (row) row.items.push(...items);
        else {
            this.rows.set(strip, { sectionID, items: [...items] });
            const now = () => this.drawRow(strip);
            strip.addEventListener('scroll', now, { once: true, passive: true });
            strip.addEventListener('focusin', now, { once: true });
        }
        for (const item of items) this.strips.set(item.id, strip);
    }

    /** Whether `strip` still holds back any result. */
    holdsAny(strip) {
        return this.heldCount(strip) > 0;
    }

    /** How many results `strip` holds back, to be drawn when it scrolls. */
    heldCount(strip) {
        return this.rows.get(strip)?.items.length ?? 0;
    }

    /** Forgets `id` (its item moved to an earlier section). */
    drop(id) {
        const strip = this.strips.get(id);
        if (!strip) return;
        this.strips.delete(id);
        const row = this.rows.get(strip);
        row.items = row.items.filter((item) => item.id !== id);
    }

    drawRow(strip) {
        const row = this.rows.get(strip);
        if (!row) return;
        this.rows.delete(strip);
        for (const item of row.items) this.strips.delete(item.id);
        if (strip.isConnected && row.items.length) this.draw(strip, row.sectionID, row.items);
    }

    /** Draws the tails that hold any of `ids`. */
    drawHolding(ids) {
        const strips = new Set(ids.map((id) => this.strips.get(id)).filter(Boolean));
        for (const strip of strips) this.drawRow(strip);
    }

    drawAll() {
        for (const strip of [...this.rows.keys()]) this.drawRow(strip);
    }

    /** Draws the tails a row at a time while the browser has nothing else to do (within 2 s regardless). */
    whenIdle() {
        if (this.idle || !this.rows.size) return;
        const step = (deadline) => {
            this.idle = 0;
            do {
                const [strip] = this.rows.keys();
                if (!strip) return;
                this.drawRow(strip);
            } while (deadline.timeRemaining() > 4);
            if (this.rows.size) this.idle = idleCallback(step, 2000);
        };
        this.idle = idleCallback(step, 2000);
    }
}
