// "All": one strip per section, in the product's fixed order, laid out at once with skeleton tiles and filled
// as each section arrives on the search stream, so sections come in any order but never move. A section
// that failed gives way to a line above the strips (sectionfailures.js); those a filter leaves out (one that
// cannot apply it, the stores under a licence filter) go, and one sentence under the filter bar says why.
import * as api from '../shared/api.js';
import { h, idleCallback } from '../shared/dom.js';
import { excludesAllRightsReserved, mayUseOnly } from '../shared/filters.js';
import { searchURL } from '../shared/routes.js';
import { skeletonTiles, shapeOf } from '../shared/tiles.js';
import { placeOf, rowCountText, sectionsSummary } from './counts.js';
import { checkedText, requestFailureText } from './failures.js';
import { isStore, leftOutSentence } from './leftout.js';
import { SectionFailures } from './sectionfailures.js';
import { retryLine } from './retryline.js';
import { rowControls } from './rowscroll.js';
import { leadingCount } from './tails.js';

export class StreamedSections {
    /** `results` (results.js) holds what both ways of showing a search share: items, tiles, the summary. */
    constructor(results) {
        this.results = results;
        this.failureLines = new SectionFailures(results.banners, results.catalog);
        this.closeStream = null;
        /** Section id → what its header counts from: `{ total, hasMore, place }`. */
        this.facts = new Map();
        /** How many tiles fill a row (the layout's `--columns`), read once a search. */
        this.columns = 3;
    }

    reset() {
        this.failureLines.reset();
        this.facts.clear();
    }

    /** Stops listening to the stream of the search before. */
    close() {
        this.closeStream?.();
        this.closeStream = null;
    }

    /**
     * Starts the stream of "All"; what it calls is set by `start`, which runs before anything arrives
     * (every call comes from a later task: the stream's answer).
     */
    open(generation) {
        const results = this.results;
        const { q, filters } = results.query;
        const handlers = {};
        this.closeStream = api.streamSearch(q, 'all', filters, {
            onSection: (section) => handlers.place(section),
            // Copies fold once the browser is idle, after the first pictures are drawn rather than while it draws
            // them: without the prefetch the groups come right after the last section (docs/duplicates.md).
            onGroups: (groups) => idleCallback(() => {
                if (results.isCurrent(generation)) results.fold(groups);
            }, 1000),
            onDone: () => handlers.finish(),
            // The stream broke (a proxy that buffers, a dropped connection): ask for the whole answer once.
            onFailure: async () => {
                if (!results.isCurrent(generation)) return;
                try {
                    const answer = await api.search(q, 'all', 1, results.controller.signal, filters);
                    answer.sections.forEach(handlers.place);
                } catch (error) {
                    if (error.name === 'AbortError' || !results.isCurrent(generation)) return;
                    const line = retryLine(requestFailureText(error), { retry: () => results.again() });
                    results.banners.replaceChildren(line);
                    handlers.finish({ failed: true });
                    return;
                }
                handlers.finish();
            },
        });
        return handlers;
    }

    /** Lays out a strip per enabled section and sets what the stream `open` started calls. */
    start(generation, handlers) {
        const results = this.results;
        // Read once a search, while the page is all but empty: how many tiles fill a row (tails.js).
        this.columns = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--columns')) || 3;
        // The stores hold nothing a licence filter can keep (all rights reserved): the server leaves them out.
        const { filters } = results.query;
        const stores = results.catalog.enabledSections.filter(isStore);
        const withoutReuse = excludesAllRightsReserved(filters) ? stores : [];
        const leftOut = { unsupported: [], withoutReuse: withoutReuse.map((section) => section.title),
            stores: stores.map((section) => section.title), mayUseOnly: mayUseOnly(filters) };
        results.showLeftOut(leftOutSentence(leftOut));
        const searched = results.catalog.enabledSections.filter((section) => !withoutReuse.includes(section));
        const slots = new Map();
        for (const section of searched) {
            const strip = h('ul', { class: results.tilesClass('strip', section.id), role: 'list',
                'aria-label': section.title }, skeletonTiles(6));
            const element = h('section', { class: 'section pending', 'data-section': section.id, 'aria-busy': 'true' },
                h('div', { class: 'section-head' },
                    h('h2', {}, section.title),
                    h('span', { class: 'count' }, 'Searching…')),
                strip);
            slots.set(section.id, element);
            results.container.append(element);
        }
        results.summary.textContent = 'Searching…';
        results.showLayout();
        const arrived = new Set();
        /** Services that failed. The server leaves empty sections out, so a service not here answered. */
        const failedSources = new Set();
        handlers.place = (section) => {
            if (!results.isCurrent(generation) || arrived.has(section.id)) return;
            arrived.add(section.id);
            const slot = slots.get(section.id);
            if (!slot) return;
            if (section.error?.code === 'unsupported_filter') {
                // Not a failure: the sentence under the filter bar names it with the others a filter left out.
                slot.remove();
                leftOut.unsupported.push({ title: results.catalog.section(section.id)?.title ?? section.id,
                    filters: section.filters?.unsupported ?? [] });
                const rank = (title) => searched.findIndex((known) => known.title === title);
                leftOut.unsupported.sort((a, b) => rank(a.title) - rank(b.title));
                results.showLeftOut(leftOutSentence(leftOut));
                results.updateSummary();
                return;
            }
            if (section.error) {
                this.failureLines.add(section, () => results.again());
                failedSources.add(results.catalog.section(section.id)?.source ?? section.id);
                slot.remove();
                return;
            }
            this.fill(slot, section);
        };
        /** Every section is in; `failed`: the search itself failed, which its line says instead of "No results". */
        handlers.finish = ({ failed = false } = {}) => {
            if (!results.isCurrent(generation)) return;
            for (const [id, slot] of slots) if (!arrived.has(id)) slot.remove();
            if (failed) return;
            // The photo library's own section may answer nothing when every service is down.
            const allDown = failedSources.size > 0 && results.items.size === 0
                && searched.every((known) => known.source === 'local' || failedSources.has(known.source));
            if (allDown) {
                // Every service failed: one line says so, and "No results" would be untrue.
                results.failures += 1;
                this.failureLines.showAllDown(() => results.again(), results.failures);
                results.summary.textContent = '';
                return;
            }
            results.failures = 0;
            if (results.items.size === 0) results.showEmpty();
            results.updateSummary();
            results.tails.whenIdle();
        };
    }

    /** A section's strip, filled with its results, its count and its links. */
    fill(slot, section) {
        const results = this.results;
        // Only what is new shows: a section whose items all came earlier (iTunes' film in Movies and
        // Music) has nothing to show, so it goes rather than leave a header over an empty row.
        const strip = slot.querySelector('.strip');
        strip.replaceChildren();
        if (!results.append(strip, section.items ?? [], section.id).length) {
            slot.remove();
            results.updateSummary();
            return;
        }
        slot.classList.remove('pending');
        slot.removeAttribute('aria-busy');
        const known = results.catalog.section(section.id);
        this.facts.set(section.id, { total: section.total ?? null, hasMore: Boolean(section.hasMore),
            place: placeOf(section.id, results.catalog.sourceTitle(known?.source ?? section.id)) });
        const checked = section.filters?.tessera ?? [];
        const note = checked.length ? h('span', { class: 'checked' }, checkedText(checked, { capital: true })) : '';
        slot.querySelector('.section-head').append(note,
            h('a', { href: searchURL({ ...results.query, scope: section.id }), 'data-nav': true,
                'aria-label': `See all ${section.title} results` }, 'See all'),
            rowControls(strip, section.title, () => results.tails.drawRow(strip)));
        results.updateSummary();
    }

    /** Of a strip's new `items`, those it draws at once: the ones that fill its width (tails.js). */
    leading(items, strip) {
        return items.slice(0, leadingCount(items, this.columns, {
            justified: strip.classList.contains('justified'), ratioOf: (item) => shapeOf(item).ratio,
        }));
    }

    /**
     * Each row's header: what the row holds now (copies fold in and out, a tag hides some), or the service's
     * count in words when See all reaches more (counts.js).
     */
    updateCounts() {
        const { container, tails } = this.results;
        for (const slot of container.querySelectorAll('.section:not(.pending)')) {
            const facts = this.facts.get(slot.dataset.section);
            const count = slot.querySelector('.count');
            if (!facts || !count) continue;
            const strip = slot.querySelector('.strip');
            const shown = strip
                ? strip.querySelectorAll('.tile:not(.skeleton):not([hidden])').length + tails.heldCount(strip)
                : 0;
            count.textContent = rowCountText({ shown, ...facts });
        }
    }

    /** The summary's count: "100 loaded from 5 sections". */
    countText(loaded) {
        return sectionsSummary(loaded, this.results.container.querySelectorAll('.section:not(.pending)').length);
    }
}
