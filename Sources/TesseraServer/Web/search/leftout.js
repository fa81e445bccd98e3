// The one sentence under the filter bar for the sections a search's filters left out, and why (docs/filters.md,
// "In the web app"): "Flickr and the store sections can’t filter by colour." rather than a paragraph each.
import { filterDefinition } from '../shared/filters.js';
import { nameList } from './failures.js';

/** The store sections (iTunes' films, music, apps, books): all rights reserved, every item. */
export const isStore = (section) => section.source === 'itunes';

/** "colour", "colour or type": what a section cannot filter by. */
function orList(names) {
    const words = names.map((name) => filterDefinition(name)?.word ?? name);
    return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** Section titles as a sentence names them, every store section at once as "the store sections". */
function sectionNames(titles, stores) {
    const all = stores.length > 1 && stores.every((title) => titles.includes(title));
    if (!all) return nameList(titles);
    return nameList([...titles.filter((title) => !stores.includes(title)), 'the store sections']);
}

/**
 * The sentence, or '' when nothing was left out. `unsupported`: the sections that cannot apply a filter, in the
 * page's order, each `{ title, filters }` (the API's `filters.unsupported`); `withoutReuse`: the titles of the
 * store sections a licence filter leaves out (nothing there may be reused); `stores`: the title of every store
 * section searched; `mayUseOnly`: "Only what I may use" is on.
 */
export function leftOutSentence({ unsupported = [], withoutReuse = [], stores = [], mayUseOnly = false }) {
    const clauses = [];
    if (withoutReuse.length) {
        const all = withoutReuse.length > 1 && stores.every((title) => withoutReuse.includes(title));
        const names = all ? `the store sections (${withoutReuse.join(', ')})` : nameList(withoutReuse);
        const verb = all || withoutReuse.length > 1 ? 'are' : 'is';
        clauses.push(`${mayUseOnly ? 'Only what you may use: ' : ''}${names} ${verb} left out, `
            + 'as nothing there may be reused');
    }
    const groups = new Map();
    for (const { title, filters } of unsupported) {
        if (withoutReuse.includes(title)) continue;
        const key = filters.join(',');
        if (!groups.has(key)) groups.set(key, { filters, titles: [] });
        groups.get(key).titles.push(title);
    }
    for (const { filters, titles } of groups.values()) {
        clauses.push(filters.length
            ? `${sectionNames(titles, stores)} can’t filter by ${orList(filters)}`
            : `${sectionNames(titles, stores)} can’t apply these filters`);
    }
    if (!clauses.length) return '';
    const sentence = `${clauses.join('; ')}.`;
    return sentence[0].toUpperCase() + sentence.slice(1);
}

/** One store section searched alone under a licence filter: why it shows nothing. */
export const storeScopeSentence = (title, mayUseOnly) =>
    `${mayUseOnly ? 'Only what you may use: nothing' : 'Nothing'} in ${title} may be reused, so it shows nothing here.`;
