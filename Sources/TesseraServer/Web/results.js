// The results of one search: a paged grid for one section, or one strip per section for "All".
//
// Every search gets a new generation number; anything that arrives for an older one (a page, a streamed
// section) is dropped, and its request is aborted as well. Items are kept by id, so a page repeating an
// item does not show it twice. A page that failed is never asked for again by itself at once: it leaves a line
// with Try again, which a person presses or which counts down first (retryline.js, docs/web.md "Failures").
import * as api from './api.js';
import { $, h, formatNumber, afterNextPaint, idleCallback } from './dom.js';
import { searchURL } from './router.js';
import { tile, skeletonTiles, applyShape, markHeld, shapeOf } from './tiles.js';
import { TagFilter } from './tags.js';
import { checkedText, failureText, filterNote, mayPass, requestFailureText, requestMayPass } from './failures.js';
import { SectionFailures } from './sectionfailures.js';
import { backOff, retryLine } from './retryline.js';
import { filterKey } from './filters.js';
import { rowControls } from './rowscroll.js';
import { icon } from './icons.js';
import { Folding } from './groups.js';
import { RowTails, leadingCount } from './tails.js';

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
        this.filterEmpty = $('#filter-empty');
        $('#filter-clear').addEventListener('click', () => this.filter.set(''));
        this.loadMoreButton = $('#load-more');
        this.end = $('#end');
        this.sentinel = $('#sentinel');
        this.generation = 0;
        this.query = null;
        this.sectionFailures = new SectionFailures(this.banners, catalog);
        /** Failures in a row of the search `failureKey` names: how long the next automatic try waits. */
        this.failures = 0;
        this.failureKey = null;
        /** Every loaded item by id, for the detail view. */
        this.items = new Map();
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

        this.loadMoreButton.addEventListener('click', () => this.loadNextPage());
        // Well ahead of the end: the next page is on its way while the user still has a screen or two to see.
        this.observer = new IntersectionObserver((entries) => {
            if (entries.some((entry) => entry.isIntersecting)) this.loadNextPage({ automatic: true });
        }, { rootMargin: '0px 0px 100% 0px' });
        this.observer.observe(this.sentinel);
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
        // milliseconds, which the answer need not wait for (docs/filters.md, "Ninth session").
        const sections = scope === 'all' ? this.openSections(generation) : null;
        this.items.clear();
        /** The section each shown item is in (all the same for one section). */
        this.owners = new Map();
        this.heldBatch = null;
        this.tails.reset();
        this.folding.reset();
        this.filter.reset(tag);
        this.banners.replaceChildren();
        this.sectionFailures.reset();
        this.pageFailure?.remove();
        this.pageFailure = null;
        /** The page that failed, until it is asked for again: nothing loads by itself meanwhile. */
        this.failedPage = null;
        this.container.replaceChildren();
        this.filterEmpty.hidden = true;
        this.page = 0;
        this.hasMore = false;
        this.total = null;
        this.checked = [];
        this.loading = false;
        this.updatePager();
        document.title = `${q} · Tessera`;
        if (sections) {
            this.startSections(generation, sections);
        } else {
            // Photos in justified rows, each in its own proportions; the stores' covers and icons in columns.
            const layout = STORE_SCOPES.has(scope) ? 'tiles grid' : 'tiles grid justified';
            this.grid = h('ul', { class: layout, role: 'list', 'aria-label': `Results for ${q}` }, skeletonTiles(12));
            this.showLayout();
            this.container.append(this.grid);
            this.summary.textContent = 'Searching…';
            this.loadNextPage();
        }
    }

    stop() {
        this.controller?.abort();
        this.closeStream?.();
        this.closeStream = null;
    }

    isCurrent(generation) {
        return generation === this.generation;
    }

    // MARK: - One section, page by page

    async loadNextPage({ automatic = false } = {}) {
        if (!this.query || this.query.scope === 'all' || this.loading) return;
        if (this.page > 0 && !this.hasMore) return;
        if (automatic && this.failedPage != null) return;
        const generation = this.generation;
        const page = this.page + 1;
        this.loading = true;
        this.updatePager();
        try {
            const { q, scope, filters } = this.query;
            const answer = await api.searchPage(q, scope, page, this.controller.signal, filters, (groups) => {
                if (this.isCurrent(generation)) this.fold(groups);
            });
            if (!this.isCurrent(generation)) return;
            const section = answer.sections[0];
            if (page === 1) this.grid.replaceChildren();
            if (section?.error?.code === 'unsupported_filter') {
                // Nothing to page through: the reason stands where the results would be.
                this.container.replaceChildren(filterNote(section, this.catalog.section(section.id)?.title, 'empty'));
                this.hasMore = false;
                this.page = page;
            } else if (section?.error) {
                const source = this.catalog.section(section.id)?.source ?? section.id;
                this.showPageFailure(page, failureText(section.error.code, [this.catalog.sourceTitle(source)],
                    section.error.retryAfter), mayPass(section.error.code), section.error.retryAfter);
            } else {
                this.failures = 0;
                this.page = page;
                this.total = section?.total ?? null;
                this.hasMore = Boolean(section?.hasMore);
                this.checked = section?.filters?.tessera ?? [];
                this.append(this.grid, section?.items ?? [], section?.id);
                this.banners.replaceChildren();
            }
        } catch (error) {
            if (error.name === 'AbortError' || !this.isCurrent(generation)) return;
            if (page === 1) this.grid.replaceChildren();
            this.showPageFailure(page, requestFailureText(error), requestMayPass(error), error.retryAfter);
        } finally {
            if (this.isCurrent(generation)) {
                this.loading = false;
                this.updatePager();
                this.updateSummary();
                // The new page may not reach the end of the screen yet (or filtered tiles hide it): keep going.
                requestAnimationFrame(() => {
                    if (this.isCurrent(generation) && this.sentinelNear()) this.loadNextPage({ automatic: true });
                });
            }
        }
    }

    sentinelNear() {
        return this.sentinel.getBoundingClientRect().top < innerHeight * 2;
    }

    /**
     * Page `page` failed: a line in the pager says why, with Try again (not "Load more") that also runs by
     * itself after a wait when the failure may pass (`passing`), at least `retryAfter` seconds.
     */
    showPageFailure(page, message, passing, retryAfter) {
        this.failedPage = page;
        this.failures += 1;
        this.pageFailure?.remove();
        this.pageFailure = retryLine(message, { retry: () => this.retryPage(),
            wait: passing ? backOff(this.failures, retryAfter) : null,
            attributes: { class: 'banner notice page-failure', 'data-page': page } });
        this.loadMoreButton.before(this.pageFailure);
    }

    /** Asks for the page that failed once more. */
    retryPage() {
        this.pageFailure = null;
        this.failedPage = null;
        if (this.page === 0) {
            this.grid.replaceChildren(...skeletonTiles(12));
            this.summary.textContent = 'Searching…';
        }
        this.loadNextPage();
    }

    updatePager() {
        const single = this.query && this.query.scope !== 'all';
        const more = single && this.page > 0 && this.hasMore && this.failedPage == null;
        this.loadMoreButton.hidden = !more;
        this.loadMoreButton.disabled = this.loading;
        this.loadMoreButton.textContent = this.loading ? 'Loading…' : 'Load more';
        const finished = single && this.page > 0 && !this.hasMore && !this.loading;
        this.end.hidden = !finished || this.items.size === 0;
        this.end.textContent = `End of results: ${formatNumber(this.items.size)} loaded.`;
        if (finished && this.items.size === 0) this.showEmpty();
    }

    // MARK: - All: one strip per section, in the fixed order, filled as sections arrive

    /**
     * Starts the stream of "All"; what it calls is set by `startSections`, which runs before anything arrives
     * (every call comes from a later task: the stream's answer).
     */
    openSections(generation) {
        const handlers = {};
        this.closeStream = api.streamSearch(this.query.q, 'all', this.query.filters, {
            onSection: (section) => handlers.place(section),
            // Copies fold once the browser is idle, after the first pictures are drawn rather than while it draws
            // them: without the prefetch the groups come right after the last section (docs/filters.md).
            onGroups: (groups) => idleCallback(() => {
                if (this.isCurrent(generation)) this.fold(groups);
            }, 1000),
            onDone: () => handlers.finish(),
            // The stream broke (a proxy that buffers, a dropped connection): ask for the whole answer once.
            onFailure: async () => {
                if (!this.isCurrent(generation)) return;
                try {
                    const answer = await api.search(this.query.q, 'all', 1, this.controller.signal, this.query.filters);
                    answer.sections.forEach(handlers.place);
                } catch (error) {
                    if (error.name === 'AbortError' || !this.isCurrent(generation)) return;
                    this.banners.replaceChildren(retryLine(requestFailureText(error), { retry: () => this.again() }));
                    handlers.finish({ failed: true });
                    return;
                }
                handlers.finish();
            },
        });
        return handlers;
    }

    startSections(generation, handlers) {
        // Read once a search, while the page is all but empty: how many tiles fill a row (tails.js).
        this.columns = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--columns')) || 3;
        const slots = new Map();
        for (const section of this.catalog.enabledSections) {
            const layout = STORE_SCOPES.has(section.id) ? 'tiles strip' : 'tiles strip justified';
            const strip = h('ul', { class: layout, role: 'list', 'aria-label': section.title }, skeletonTiles(6));
            const element = h('section', { class: 'section pending', 'data-section': section.id, 'aria-busy': 'true' },
                h('div', { class: 'section-head' },
                    h('h2', {}, section.title),
                    h('span', { class: 'count' }, 'Searching…')),
                strip);
            slots.set(section.id, element);
            this.container.append(element);
        }
        this.summary.textContent = 'Searching…';
        this.showLayout();
        const arrived = new Set();
        /** Services that failed. The server leaves empty sections out, so a service not here answered. */
        const failedSources = new Set();
        const place = (section) => {
            if (!this.isCurrent(generation) || arrived.has(section.id)) return;
            arrived.add(section.id);
            const slot = slots.get(section.id);
            if (!slot) return;
            if (section.error?.code === 'unsupported_filter') {
                // The reason, in the section's place: an empty row would say "nothing matched".
                slot.classList.replace('pending', 'note');
                slot.removeAttribute('aria-busy');
                slot.querySelector('.count').remove();
                slot.querySelector('.strip').replaceWith(filterNote(section, this.catalog.section(section.id)?.title));
                this.updateSummary();
                return;
            }
            if (section.error) {
                this.sectionFailures.add(section, () => this.again());
                failedSources.add(this.catalog.section(section.id)?.source ?? section.id);
                slot.remove();
                return;
            }
            // Only what is new shows: a section whose items all came earlier (iTunes' film in Movies and
            // Music) has nothing to show, so it goes rather than leave a header over an empty row.
            const strip = slot.querySelector('.strip');
            strip.replaceChildren();
            if (!this.append(strip, section.items ?? [], section.id).length) {
                slot.remove();
                this.updateSummary();
                return;
            }
            slot.classList.remove('pending');
            slot.removeAttribute('aria-busy');
            const count = section.total == null
                ? `${formatNumber(section.items.length)}+`
                : formatNumber(section.total);
            slot.querySelector('.count').textContent = `${count} results`;
            const checked = section.filters?.tessera ?? [];
            const note = checked.length ? h('span', { class: 'checked' }, checkedText(checked, { capital: true })) : '';
            slot.querySelector('.section-head').append(note,
                h('a', { href: searchURL({ ...this.query, scope: section.id }), 'data-nav': true,
                    'aria-label': `See all ${section.title} results` }, 'See all'),
                rowControls(strip, section.title, () => this.tails.drawRow(strip)));
            this.updateSummary();
        };
        /** Every section is in; `failed`: the search itself failed, which its line says instead of "No results". */
        const finish = ({ failed = false } = {}) => {
            if (!this.isCurrent(generation)) return;
            for (const [id, slot] of slots) if (!arrived.has(id)) slot.remove();
            if (failed) return;
            // The photo library's own section may answer nothing when every service is down.
            const allDown = failedSources.size > 0 && this.items.size === 0 && this.catalog.enabledSections
                .every((known) => known.source === 'local' || failedSources.has(known.source));
            if (allDown) {
                // Every service failed: one line says so, and "No results" would be untrue.
                this.failures += 1;
                this.sectionFailures.showAllDown(() => this.again(), this.failures);
                this.summary.textContent = '';
                return;
            }
            this.failures = 0;
            if (this.items.size === 0) this.showEmpty();
            this.updateSummary();
            this.tails.whenIdle();
        };
        handlers.place = place;
        handlers.finish = finish;
    }

    // MARK: - Shared

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
        const now = list.classList.contains('strip') && !this.filter.tag
            ? fresh.slice(0, leadingCount(fresh, this.columns, {
                justified: list.classList.contains('justified'), ratioOf: (item) => shapeOf(item).ratio,
            }))
            : fresh;
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

    applyFilter() {
        // Every result counts for a tag: the rows' tails are drawn before the filter is.
        if (this.filter.tag) this.tails.drawAll();
        this.filter.apply(this.container.querySelectorAll('.tile:not(.skeleton)'));
        this.updateSummary();
        if (this.query) this.onTagChange?.(this.filter.tag);
        if (this.sentinelNear()) this.loadNextPage({ automatic: true });
    }

    updateSummary() {
        if (!this.query) return;
        const loaded = this.items.size;
        const visible = this.filter.tag
            ? this.container.querySelectorAll('.tile:not(.skeleton):not([hidden])').length
            : loaded;
        let text;
        if (this.query.scope === 'all') {
            const sections = this.container.querySelectorAll('.section:not(.pending):not(.note)').length;
            text = `${formatNumber(loaded)} results from ${sections} ${sections === 1 ? 'section' : 'sections'}`;
        } else {
            text = this.total == null
                ? `${formatNumber(loaded)} loaded`
                : `${formatNumber(loaded)} of ${formatNumber(this.total)} results`;
        }
        text += this.folding.summaryText();
        if (this.checked.length) text += ` · ${checkedText(this.checked)}`;
        if (this.filter.tag) text = `${formatNumber(visible)} tagged “${this.filter.tag}” · ${text}`;
        const note = this.container.querySelector('.filter-note.empty'); // the section's reason says it all
        this.summary.textContent = (loaded || this.page > 0) && !note ? text : '';
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
        // Sections that could not apply a filter keep saying why, under the message.
        const notes = this.container.querySelectorAll('.section.note');
        this.container.replaceChildren(h('p', { class: 'empty', role: 'status' }, `No results for “${this.query.q}”.`),
            ...notes);
        this.summary.textContent = '';
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
        this.grid?.classList.toggle('list', list);
    }
}
