// The numbers a search page says, each saying what it counts (docs/web.md, "Counts"): a row's header counts what
// the row holds, or gives the service's own count in words ("about 11,400 on Pixabay"), never "N results" over
// fewer tiles; the summary counts what was loaded; the end of a list says how many and why it ended.
import { formatNumber } from '../shared/dom.js';
import { filterWords } from '../shared/filters.js';

/**
 * How many results of one search each service lets an app page through (docs/sources.md): Pixabay 500, Flickr
 * 4,000, Openverse 20 pages of 20 without an account, Commons offset 10,000, iTunes one answer of 200. The API
 * does not say it per section, so the page keeps the table.
 */
export const SERVICE_LIMITS = { pixabay: 500, flickr: 4000, openverse: 400, wikimedia: 10000, itunes: 200 };

/** A service's own count in words: exact below 1,000, else "about" and three figures ("about 11,400"). */
export function roughly(count) {
    if (count < 1000) return formatNumber(count);
    const step = 10 ** (Math.floor(Math.log10(count)) - 2);
    return `about ${formatNumber(Math.round(count / step) * step)}`;
}

/** Where a section's results are, for "about 11,400 on Pixabay": the library is the person's own. */
export const placeOf = (sectionID, service) => (sectionID === 'local' ? 'in your library' : `on ${service}`);

/**
 * A row's header in "All": what the row holds (`shown`: its tiles, those still to be drawn included), or, when
 * See all reaches more and the service counts them, its count in words.
 */
export function rowCountText({ shown, total = null, hasMore = false, place }) {
    if (hasMore && total != null && total > shown) return `${roughly(total)} ${place}`;
    if (shown === 0) return ''; // every picture folded into another row's tiles, which the row says
    return `${formatNumber(shown)} shown`;
}

/** The summary of "All": what was loaded, from how many sections ("55 loaded from 5 sections"). */
export const sectionsSummary = (loaded, sections) =>
    `${formatNumber(loaded)} loaded from ${formatNumber(sections)} ${sections === 1 ? 'section' : 'sections'}`;

/**
 * The summary of one section's list: "20 of 45 loaded" when the service lets all of its count be reached,
 * "20 loaded · about 8,740 on Pixabay" when it does not, "12 loaded" when it gives no count.
 */
export function gridSummary({ loaded, total = null, limit = null, place }) {
    if (total == null || (loaded === 1 && total <= 1)) return `${formatNumber(loaded)} loaded`;
    if (loaded >= total) return `All ${formatNumber(loaded)} loaded`;
    if (limit == null || total <= limit) return `${formatNumber(loaded)} of ${formatNumber(total)} loaded`;
    return `${formatNumber(loaded)} loaded · ${roughly(total)} ${place}`;
}

/**
 * The end of one section's list: how many were loaded and why there are no more. `read`: how many of the
 * service's results the pages loaded covered (20 a page); `checked`: the filters Tessera applied itself
 * (`filters.tessera`), reading up to three of the service's pages for one and skipping the rest of those
 * (docs/filters.md, "Pages when Tessera filters"), so some matches may never have been read.
 */
export function endText({ loaded, total = null, limit = null, read = 0, checked = [], service }) {
    const count = formatNumber(loaded);
    if (loaded === 0) return '';
    if (checked.length) {
        return `${count} loaded: ${service} can’t filter by ${filterWords(checked)}, so Tessera checked its `
            + 'results itself and may have missed some.';
    }
    const all = loaded === 1 ? 'The one result is loaded.' : `All ${count} loaded.`;
    if (total != null && loaded >= total) return all;
    if (limit != null && read >= limit) {
        return `${count} loaded: ${service} lets apps reach at most ${formatNumber(limit)} results of one search.`;
    }
    // Well short of the service's count (more than a page): the service stopped, not the results.
    if (total != null && total - loaded >= 20) {
        return `${count} loaded: ${service} counts ${roughly(total)} but lets apps reach only these.`;
    }
    return all;
}
