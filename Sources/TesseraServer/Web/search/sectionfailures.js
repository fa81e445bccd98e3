// The lines of an "All" search for the services that failed: one line per way of failing, naming the services
// ("Couldn’t reach Pixabay and Flickr."), in section order whatever order they failed in, iTunes once for its
// four sections. When every service failed there is one line alone, and no "No results" under it.
import { ALL_UNREACHABLE, failureText, mayPass } from './failures.js';
import { backOff, retryLine } from './retryline.js';

/** The ways of failing that mean the service could not be reached at all. */
const CONNECTION = new Set(['unreachable', 'timeout']);

export class SectionFailures {
    constructor(banners, catalog) {
        this.banners = banners;
        this.catalog = catalog;
        /** source id → `{code, retryAfter, rank}`, the first failure of each service. */
        this.failed = new Map();
    }

    reset() {
        this.failed.clear();
    }

    /** Counts a section that failed and redraws the lines; each line's Try again runs `retry`. */
    add(section, retry) {
        const source = this.catalog.section(section.id)?.source ?? section.id;
        if (!this.failed.has(source)) {
            const rank = this.catalog.sections.findIndex((known) => known.id === section.id);
            this.failed.set(source, { code: section.error.code, retryAfter: section.error.retryAfter ?? null, rank });
        }
        this.banners.replaceChildren(...this.groups().map((group) => retryLine(group.text, { retry,
            attributes: { 'data-code': group.code, 'data-sources': group.sources.join(' ') } })));
    }

    /**
     * Every service failed: one line, with one Try again, that also tries again by itself after a while
     * (`failures`: how many times in a row this search found everything down).
     */
    showAllDown(retry, failures) {
        const groups = this.groups();
        const connection = groups.every((group) => CONNECTION.has(group.code));
        const passing = groups.some((group) => mayPass(group.code));
        const retryAfter = Math.max(0, ...groups.map((group) => group.retryAfter ?? 0));
        const text = connection ? ALL_UNREACHABLE : groups.map((group) => group.text).join(' ');
        const code = connection ? 'all_unreachable' : 'all_failed';
        this.banners.replaceChildren(retryLine(text, { retry, wait: passing ? backOff(failures, retryAfter) : null,
            attributes: { 'data-code': code, class: 'banner notice all-down' } }));
    }

    /** The failures grouped by code, in the order of each code's first section, each with its line. */
    groups() {
        const groups = new Map();
        for (const [source, failure] of [...this.failed].sort((a, b) => a[1].rank - b[1].rank)) {
            const group = groups.get(failure.code) ?? { code: failure.code, sources: [], retryAfter: null };
            group.sources.push(source);
            if (failure.retryAfter != null) group.retryAfter = Math.max(group.retryAfter ?? 0, failure.retryAfter);
            groups.set(failure.code, group);
        }
        return [...groups.values()].map((group) => ({ ...group,
            text: failureText(group.code, group.sources.map((source) => this.catalog.sourceTitle(source)),
                group.retryAfter) }));
    }
}
