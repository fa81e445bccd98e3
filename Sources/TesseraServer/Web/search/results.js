// The results of one search, shown one of two ways: a paged grid for one section (pagedgrid.js), or one strip
// per section for "All" from the search stream (sections.js). This holds what both share: the items by id
// and the section each is shown in, their tiles, the tag filter, the copies folded into one tile, the marks
// of what galleries hold, the summary and the layout.
//
// Every search gets a new generation number; anything that arrives for an older one (a page, a streamed
// section) is dropped, and its request is aborted as well. Items are kept by id, so a page repeating an
// item does not show it twice.
import * as api from '../shared/api.js';
import { $, h, formatNumber, afterNextPaint } from '../shared/dom.js';
import { tile, applyShape, markHeld } from '../shared/tiles.js';
import { icon } from '../shared/icons.js';
import { filterKey } from '../shared/filters.js';
import { TagFilter } from './tags.js';
import { checkedText } from './failures.js';
import { Folding } from './groups.js';
import { RowTails } from './tails.js';
import { PagedGrid } from './pagedgrid.js';
import { StreamedSections } from './sections.js';

/** Sections of the stores (iTunes): covers and icons of one shape each, in columns rather than rows. */
const STORE_SCOPES = new Set(['movies', 'music', 'apps', 'books']);
/** A section's first tiles, which the window shows at once: loaded eagerly (the server prefetches as many first). */
const LEADING_TILES = 6;
/** Every result's add button, cloned: made once rather than a button and an icon per tile. */
let ADD_BUTTON = null;

export class Results {
    constructor(catalog) {
        this.catalog = catalog;
        this.container = $('#results');
        this.banners = $('#banners');
        this.summary = $('#summary');
        this.leftOut = $('#left-out');
        this.filterEmpty = $('#filter-empty');
        $('#filter-clear').addEventListener('click', () => this.filter.set(''));
        this.generation = 0;
        this.query = null;
        /** Failures in a row of the search `failureKey` names: how long the next automatic try waits. */
        this.failures = 0;
        this.failureKey = null;
        /** Every loaded item by id, for the detail view. */
        this.items = new Map();
        /** The section each shown item is in (all the same for one section). */
        this.owners = new Map();
        this.layout = localStorage.getItem('tessera.layout') === 'list' ? 'list' : 'grid';
        this.filter = new TagFilter(() => this.applyFilter());
        this.tails = new RowTails((strip, sectionID, items) => this.drawTail(strip, sectionID, items));
        this.folding = new Folding(this, (item) => {
            const element = this.makeTile(item, this.owners.get(item.id));
            this.filter.apply([element]);
            this.markHeld([item.id]);
            return element;
        });
        document.addEventListener('tessera:held', (event) => {
            this.markTile(event.detail.id, [event.detail.gallery.name]);
        });
        this.pages = new PagedGrid(this);
        this.sections = new StreamedSections(this);
        $('#view-grid').addEventListener('click', () => this.setLayout('grid'));
        $('#view-list').addEventListener('click', () => this.setLayout('list'));
        this.showLayout();
    }

    /** Whether these results are the ones for this search (then nothing needs loading). */
    shows({ q, scope, filters }) {
        return this.query?.q === q && this.query?.scope === scope
            && filterKey(this.query.filters) === filterKey(filters);
    }

    /** Starts a new search; whatever the previous one still had in flight is aborted and ignored. */
    start({ q, scope, filters = {}, tag }) {
        this.stop();
        const generation = ++this.generation;
        this.query = { q, scope, filters };
        const key = `${q}\n${scope}\n${filterKey(filters)}`;
        if (key !== this.failureKey) this.failures = 0;
        this.failureKey = key;
        this.controller = new AbortController();
        // The request leaves first: clearing the last results and drawing the skeleton rows take the page a few
        // milliseconds, which the answer need not wait for (docs/duplicates.md, "Return to 20 thumbnails painted").
        const stream = scope === 'all' ? this.sections.open(generation) : null;
        this.items.clear();
        this.owners = new Map();
        this.heldBatch = null;
        this.tails.reset();
        this.folding.reset();
        this.filter.reset(tag);
        this.banners.replaceChildren();
        this.showLeftOut('');
        this.sections.reset();
        this.container.replaceChildren();
        this.filterEmpty.hidden = true;
        this.pages.reset();
        document.title = `${q} · Tessera`;
        if (stream) this.sections.start(generation, stream);
        else this.pages.start();
    }

    stop() {
        this.controller?.abort();
        this.sections.close();
    }

    isCurrent(generation) {
        return generation === this.generation;
    }

    /** Photos in justified rows, each in its own proportions; the stores' covers and icons in columns. */
    tilesClass(kind, sectionID) {
        return STORE_SCOPES.has(sectionID) ? `tiles ${kind}` : `tiles ${kind} justified`;
    }

    // MARK: - Tiles

    /** Adds the items not shown yet to `list`, as section `sectionID`'s; answers the tiles drawn at once. */
    append(list, items, sectionID) {
        // An item two sections share belongs to the earlier one in the fixed order, whichever arrived first,
        // so what shows does not depend on which service answered sooner.
        const rank = (id) => this.catalog.sections.findIndex((section) => section.id === id);
        const moved = new Set();
        const fresh = items.filter((item) => {
            const owner = this.owners.get(item.id);
            if (owner === undefined) return true;
            if (!sectionID || rank(owner) <= rank(sectionID)) return false;
            this.release(item.id, owner);
            moved.add(item.id);
            return true;
        });
        for (const item of fresh) {
            this.items.set(item.id, item);
            this.owners.set(item.id, sectionID);
        }
        this.filter.add(fresh.filter((item) => !moved.has(item.id)));
        // A row of "All" draws what fills it; its tail waits (tails.js), unless a tag filter needs every result.
        const now = list.classList.contains('strip') && !this.filter.tag ? this.sections.leading(fresh, list) : fresh;
        this.tails.hold(list, sectionID, fresh.slice(now.length));
        const start = list.children.length;
        const tiles = now.map((item, index) => this.makeTile(item, sectionID, start + index < LEADING_TILES));
        this.insert(list, tiles);
        return tiles;
    }

    /**
     * The rest of a row of "All", drawn. A tail holds only the row's own results, none folded away: an item that
     * moves to an earlier section leaves it (`release`), and a group draws the tails its copies wait in before
     * it folds (`fold`).
     */
    drawTail(strip, sectionID, items) {
        this.insert(strip, items.map((item) => this.makeTile(item, sectionID)));
    }

    insert(list, tiles) {
        list.append(...tiles);
        this.filter.apply(tiles);
        this.markHeld(tiles.map((element) => element.dataset.id));
    }

    makeTile(item, sectionID, eager = false) {
        const title = this.catalog.section(sectionID)?.title ?? this.catalog.sourceTitle(item.source);
        const element = tile(item, title, { eager });
        applyShape(element, item);
        // A finger cannot drag a result to a gallery: every tile has the action itself. Out of the tab
        // order (one stop per tile); the keyboard adds from the detail view.
        ADD_BUTTON ??= h('button', { type: 'button', class: 'tile-add', tabindex: '-1', title: 'Add to gallery' },
            icon('plus'));
        const add = ADD_BUTTON.cloneNode(true);
        add.setAttribute('data-add', item.id);
        add.setAttribute('aria-label', `Add “${item.title}” to a gallery`);
        element.append(add);
        return element;
    }

    /** Folds the copies of one picture among a page's items into one tile each (groups.js). */
    fold(groups) {
        // A copy still in a row's tail is drawn first, so the group folds where its first copy is.
        this.tails.drawHolding(groups.flatMap((group) => group.items));
        this.folding.apply(groups);
        this.updateSummary();
    }

    /**
     * Marks the tiles of results some gallery already holds: asked once for every page or section that arrives
     * before the next frame is drawn (the sections of "All" come together), after that frame.
     */
    async markHeld(ids) {
        if (!ids.length) return;
        if (this.heldBatch) {
            this.heldBatch.push(...ids);
            return;
        }
        const generation = this.generation;
        const batch = this.heldBatch = [...ids];
        await afterNextPaint();
        if (this.heldBatch === batch) this.heldBatch = null;
        if (!this.isCurrent(generation)) return;
        const holding = await api.galleriesHolding(batch, this.controller?.signal).catch(() => ({}));
        if (!this.isCurrent(generation)) return;
        for (const [id, galleries] of Object.entries(holding)) this.markTile(id, galleries.map((g) => g.name));
    }

    markTile(id, names) {
        markHeld(this.container.querySelector(`.tile[data-id="${CSS.escape(id)}"]`), names);
    }

    /** Takes an item's tile out of a later section; the section goes when nothing is left in it. */
    release(id, sectionID) {
        this.tails.drop(id);
        const section = this.container.querySelector(`.section[data-section="${CSS.escape(sectionID)}"]`);
        section?.querySelector(`.tile[data-id="${CSS.escape(id)}"]`)?.remove();
        if (section && !section.classList.contains('pending') && !section.querySelector('.tile')
            && !this.tails.holdsAny(section.querySelector('.strip'))) section.remove();
    }

    // MARK: - What the page says

    applyFilter() {
        // Every result counts for a tag: the rows' tails are drawn before the filter is.
        if (this.filter.tag) this.tails.drawAll();
        this.filter.apply(this.container.querySelectorAll('.tile:not(.skeleton)'));
        this.updateSummary();
        if (this.query) this.onTagChange?.(this.filter.tag);
        if (this.pages.sentinelNear()) this.pages.loadNextPage({ automatic: true });
    }

    updateSummary() {
        if (!this.query) return;
        const loaded = this.items.size;
        const visible = this.filter.tag
            ? this.container.querySelectorAll('.tile:not(.skeleton):not([hidden])').length
            : loaded;
        const mode = this.query.scope === 'all' ? this.sections : this.pages;
        if (mode === this.sections) this.sections.updateCounts();
        let text = mode.countText(loaded) + this.folding.summaryText();
        if (this.pages.checked.length) text += ` · ${checkedText(this.pages.checked)}`;
        if (this.filter.tag) text = `${formatNumber(visible)} tagged “${this.filter.tag}” · ${text}`;
        const note = this.container.querySelector('.filter-note.empty'); // the section's reason says it all
        this.summary.textContent = (loaded || this.pages.page > 0) && !note ? text : '';
        this.showFiltered(visible);
    }

    /** With a tag filter on, sections left with no tile hide, and an empty result says so. */
    showFiltered(visible) {
        const tag = this.filter.tag;
        for (const section of this.container.querySelectorAll('.section:not(.pending):not(.note)')) {
            section.hidden = Boolean(tag) && !section.querySelector('.tile:not(.skeleton):not([hidden])');
        }
        this.filterEmpty.hidden = !tag || visible > 0 || this.items.size === 0;
        $('#filter-empty-text').textContent = `Nothing here is tagged “${tag}”.`;
    }

    /** Runs the search again, as it is (Try again in "All"). */
    again() {
        this.start({ ...this.query, tag: this.filter.tag });
    }

    showEmpty() {
        if (this.container.querySelector('.empty')) return;
        this.container.replaceChildren(h('p', { class: 'empty', role: 'status' }, `No results for “${this.query.q}”.`));
        this.summary.textContent = '';
    }

    /** The sentence under the filter bar for what the filters left out (leftout.js), or none. */
    showLeftOut(text) {
        this.leftOut.textContent = text;
        this.leftOut.hidden = !text;
    }

    setLayout(layout) {
        this.layout = layout;
        localStorage.setItem('tessera.layout', layout);
        this.showLayout();
    }

    showLayout() {
        const list = this.layout === 'list';
        $('#view-grid').setAttribute('aria-pressed', String(!list));
        $('#view-list').setAttribute('aria-pressed', String(list));
        for (const element of this.container.querySelectorAll('.tiles')) element.classList.toggle('list', list);
        this.pages.list?.classList.toggle('list', list);
    }
}
