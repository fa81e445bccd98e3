// Moving the horizontally scrolling rows of "All" without a trackpad: previous/next buttons (shown where a
// mouse is the pointer; a touch screen swipes), and a vertical wheel over a row moving it sideways.
//
// The wheel follows the browser's own rule for nested scrollers, latching: a run of wheel events (no pause
// longer than LATCH_MS) moves whatever it started over. A run that starts over a row that can move that way
// moves the row; one that starts elsewhere, or over a row already at that end, scrolls the page, and keeps
// doing so when rows pass under the pointer. So scrolling down the page never gets caught by a row.
import { h } from '../shared/dom.js';

const LATCH_MS = 400;
const latch = { row: null, until: 0, starting: false };

function canMove(row, direction) {
    const end = row.scrollWidth - row.clientWidth;
    return direction > 0 ? row.scrollLeft < end - 1 : row.scrollLeft > 1;
}

/** Wheel pixels, whatever unit the event counts in (lines, pages). */
function pixels(event, row) {
    if (event.deltaMode === WheelEvent.DOM_DELTA_LINE) return event.deltaY * 40;
    if (event.deltaMode === WheelEvent.DOM_DELTA_PAGE) return event.deltaY * row.clientWidth;
    return event.deltaY;
}

// Every wheel event ends or extends the current run, wherever it happens, so a run over the page is known.
addEventListener('wheel', (event) => {
    latch.starting = event.timeStamp > latch.until;
    if (latch.starting) latch.row = null;
    latch.until = event.timeStamp + LATCH_MS;
}, { capture: true, passive: true });

/**
 * Where the next (1) or previous (-1) page of the row starts, in whole tiles (they differ in width): next
 * starts at the first tile not wholly in view; previous at the first tile from which every tile up to the
 * first one in view fits. So previous undoes next.
 */
function pageStart(row, direction) {
    const origin = row.getBoundingClientRect().left - row.scrollLeft;
    const pad = parseFloat(getComputedStyle(row).paddingLeft) || 0;
    const tiles = [...row.querySelectorAll('.tile')].map((tile) => {
        const box = tile.getBoundingClientRect();
        return { left: box.left - origin, right: box.right - origin };
    });
    const shown = { left: row.scrollLeft + pad, right: row.scrollLeft + row.clientWidth - pad };
    if (direction > 0) {
        const cut = tiles.find((tile) => tile.right > shown.right + 1);
        return cut ? cut.left - pad : row.scrollWidth;
    }
    const first = tiles.find((tile) => tile.left >= shown.left - 1);
    if (!first) return 0;
    const start = tiles.find((tile) => first.left - tile.left <= shown.right - shown.left + 1);
    return Math.max(0, (start?.left ?? pad) - pad);
}

/** Each row's way to set its buttons, by row. */
const rowButtons = new WeakMap();

// One observer for every row, called once the page is laid out: every row is read before any button is set, as a
// change to a button would make the next row's read lay the page out again (docs/duplicates.md).
const sized = new ResizeObserver((entries) => {
    const moves = [];
    for (const { target } of entries) {
        // A row that left the page reports its size falling to nothing: let it go.
        if (!target.isConnected) sized.unobserve(target);
        else moves.push([target, canMove(target, -1), canMove(target, 1)]);
    }
    for (const [row, back, forward] of moves) rowButtons.get(row)?.(back, forward);
});

/**
 * Gives `row` (a `.strip`) its wheel handling and returns its previous/next buttons, labelled with `title`
 * (the section's name), disabled at the row's ends. `whole()` puts in whatever the row still holds back
 * (tails.js), called before a button measures a page.
 */
export function rowControls(row, title, whole = () => {}) {
    const previous = h('button', { type: 'button', class: 'row-nav', 'aria-label': `Previous ${title} results` },
        '‹');
    const next = h('button', { type: 'button', class: 'row-nav', 'aria-label': `Next ${title} results` }, '›');
    const page = (direction) => {
        whole();
        row.scrollTo({ left: pageStart(row, direction), behavior: 'smooth' });
    };
    previous.addEventListener('click', () => page(-1));
    next.addEventListener('click', () => page(1));
    const set = (back, forward) => {
        previous.disabled = !back;
        next.disabled = !forward;
    };
    rowButtons.set(row, set);
    row.addEventListener('scroll', () => set(canMove(row, -1), canMove(row, 1)), { passive: true });
    // The observer's first call comes once the row is laid out, before it is painted: asking now would make
    // the browser lay out the page again for every section as it arrives.
    sized.observe(row);
    // Tiles coming or going change what the row holds, not its size: observed afresh, it is reported once more
    // after the next layout.
    new MutationObserver(() => {
        sized.unobserve(row);
        sized.observe(row);
    }).observe(row, { childList: true });

    row.addEventListener('wheel', (event) => {
        // Pinch-zoom, a sideways gesture (the browser moves the row itself) or Shift (it does too).
        if (event.ctrlKey || event.shiftKey || Math.abs(event.deltaX) >= Math.abs(event.deltaY)) return;
        // Not cancelable: the browser has scrolled the page already, and the page moving is what put this row
        // under the pointer (Chromium hit-tests a wheel it did not wait for after scrolling).
        if (!event.cancelable) return;
        const direction = Math.sign(event.deltaY);
        // The window's capture listener above has run first, so `starting` is about this very event.
        if (latch.starting && canMove(row, direction)) latch.row = row;
        if (latch.row !== row) return;
        event.preventDefault();
        row.scrollBy({ left: pixels(event, row) });
    }, { passive: false });
    return h('span', { class: 'row-navs' }, previous, next);
}
