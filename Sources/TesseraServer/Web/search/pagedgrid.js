// One section's results, page by page: a grid that asks for the next page well before its end, "Load more"
// for keyboards, the end said, and a failed page's line in the pager. A page that failed is never asked for
// again by itself at once: its line has Try again, which a person presses or which counts down first
// (retryline.js, docs/web.md "Failures").
import * as api from '../shared/api.js';
import { $, h } from '../shared/dom.js';
import { excludesAllRightsReserved, mayUseOnly } from '../shared/filters.js';
import { skeletonTiles } from '../shared/tiles.js';
import { SERVICE_LIMITS, endText, gridSummary, placeOf } from './counts.js';
import { filterNote, failureText, mayPass, requestFailureText, requestMayPass } from './failures.js';
import { isStore, storeScopeSentence } from './leftout.js';
import { backOff, retryLine } from './retryline.js';

export class PagedGrid {
    /** `results` (results.js) holds what both ways of showing a search share: items, tiles, the summary. */
    constructor(results) {
        this.results = results;
        this.loadMoreButton = $('#load-more');
        this.end = $('#end');
        this.sentinel = $('#sentinel');
        /** The grid's list, while a search of one section shows. */
        this.list = null;
        this.loadMoreButton.addEventListener('click', () => this.loadNextPage());
        // Well ahead of the end: the next page is on its way while the user still has a screen or two to see.
        this.observer = new IntersectionObserver((entries) => {
            if (entries.some((entry) => entry.isIntersecting)) this.loadNextPage({ automatic: true });
        }, { rootMargin: '0px 0px 100% 0px' });
        this.observer.observe(this.sentinel);
    }

    /** Forgets the pages of the search before; every search starts here, "All" too, which has no pager. */
    reset() {
        this.pageFailure?.remove();
        this.pageFailure = null;
        /** The page that failed, until it is asked for again: nothing loads by itself meanwhile. */
        this.failedPage = null;
        this.page = 0;
        this.hasMore = false;
        this.total = null;
        /** The filters Tessera applied to the service's answer itself (`filters.tessera`). */
        this.checked = [];
        this.loading = false;
        this.updatePager();
    }

    start() {
        const { q, scope, filters } = this.results.query;
        const section = this.results.catalog.section(scope);
        if (section && isStore(section) && excludesAllRightsReserved(filters)) {
            this.results.showLeftOut(storeScopeSentence(section.title, mayUseOnly(filters)));
        }
        this.list = h('ul', { class: this.results.tilesClass('grid', scope), role: 'list',
            'aria-label': `Results for ${q}` }, skeletonTiles(12));
        this.results.showLayout();
        this.results.container.append(this.list);
        this.results.summary.textContent = 'Searching…';
        this.loadNextPage();
    }

    async loadNextPage({ automatic = false } = {}) {
        const results = this.results;
        if (!results.query || results.query.scope === 'all' || this.loading) return;
        if (this.page > 0 && !this.hasMore) return;
        if (automatic && this.failedPage != null) return;
        const generation = results.generation;
        const page = this.page + 1;
        this.loading = true;
        this.updatePager();
        try {
            const { q, scope, filters } = results.query;
            const answer = await api.searchPage(q, scope, page, results.controller.signal, filters, (groups) => {
                if (results.isCurrent(generation)) results.fold(groups);
            });
            if (!results.isCurrent(generation)) return;
            const section = answer.sections[0];
            if (page === 1) this.list.replaceChildren();
            if (section?.error?.code === 'unsupported_filter') {
                // Nothing to page through: the reason stands where the results would be.
                const title = results.catalog.section(section.id)?.title;
                results.container.replaceChildren(filterNote(section, title, 'empty'));
                this.hasMore = false;
                this.page = page;
            } else if (section?.error) {
                const source = results.catalog.section(section.id)?.source ?? section.id;
                this.showPageFailure(page, failureText(section.error.code, [results.catalog.sourceTitle(source)],
                    section.error.retryAfter), mayPass(section.error.code), section.error.retryAfter);
            } else {
                results.failures = 0;
                this.page = page;
                this.total = section?.total ?? null;
                this.hasMore = Boolean(section?.hasMore);
                this.checked = section?.filters?.tessera ?? [];
                results.append(this.list, section?.items ?? [], section?.id);
                results.banners.replaceChildren();
            }
        } catch (error) {
            if (error.name === 'AbortError' || !results.isCurrent(generation)) return;
            if (page === 1) this.list.replaceChildren();
            this.showPageFailure(page, requestFailureText(error), requestMayPass(error), error.retryAfter);
        } finally {
            if (results.isCurrent(generation)) {
                this.loading = false;
                this.updatePager();
                results.updateSummary();
                // The new page may not reach the end of the screen yet (or filtered tiles hide it): keep going.
                requestAnimationFrame(() => {
                    if (results.isCurrent(generation) && this.sentinelNear()) this.loadNextPage({ automatic: true });
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
        this.results.failures += 1;
        this.pageFailure?.remove();
        this.pageFailure = retryLine(message, { retry: () => this.retryPage(),
            wait: passing ? backOff(this.results.failures, retryAfter) : null,
            attributes: { class: 'banner notice page-failure', 'data-page': page } });
        this.loadMoreButton.before(this.pageFailure);
    }

    /** Asks for the page that failed once more. */
    retryPage() {
        this.pageFailure = null;
        this.failedPage = null;
        if (this.page === 0) {
            this.list.replaceChildren(...skeletonTiles(12));
            this.results.summary.textContent = 'Searching…';
        }
        this.loadNextPage();
    }

    updatePager() {
        const { query, items } = this.results;
        const single = query && query.scope !== 'all';
        const more = single && this.page > 0 && this.hasMore && this.failedPage == null;
        this.loadMoreButton.hidden = !more;
        this.loadMoreButton.disabled = this.loading;
        this.loadMoreButton.textContent = this.loading ? 'Loading…' : 'Load more';
        const finished = single && this.page > 0 && !this.hasMore && !this.loading;
        this.end.hidden = !finished || items.size === 0;
        if (finished) {
            this.end.textContent = endText({ loaded: items.size, total: this.total, ...this.service(),
                read: this.page * 20, checked: this.checked });
        }
        if (finished && items.size === 0) this.results.showEmpty();
    }

    /** The service of the section shown: its name, where its results are, how many of a search it lets apps reach. */
    service() {
        const { catalog, query } = this.results;
        const source = catalog.section(query.scope)?.source ?? query.scope;
        const service = catalog.sourceTitle(source);
        return { service, place: placeOf(query.scope, service), limit: SERVICE_LIMITS[source] ?? null };
    }

    /** The summary's count: "40 of 1,204 loaded", "40 loaded · about 8,740 on Pixabay", or "40 loaded" (counts.js). */
    countText(loaded) {
        return gridSummary({ loaded, total: this.total, ...this.service() });
    }
}
