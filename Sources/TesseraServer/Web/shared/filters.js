// The search filters (docs/filters.md): what the filter bar offers, and how a choice is read from an address
// and written to one. A filter is a string as the API takes it (`license=commercial,cc0`, `color=red`);
// an empty or missing one means "any". Values the bar does not list are kept as the address gives them, so
// the server says what is wrong with one (400 `invalid_filter`) rather than the page dropping it quietly.

/** Every filter in the API's order; `multiple` ones are comma lists. */
export const FILTERS = [
    {
        // `reusable` is the bar's own switch ("Only what I may use"), not a choice in the licence panel.
        name: 'license', title: 'Licence', word: 'licence', multiple: true, switch: 'reusable',
        parts: [
            { title: 'Allowing', values: ['commercial', 'modification'] },
            { title: 'Only these licences', values: ['cc0', 'pdm', 'cc-by', 'cc-by-sa', 'pixabay'] },
        ],
        labels: {
            reusable: 'Only what I may use', commercial: 'Commercial use', modification: 'Modification', cc0: 'CC0',
            pdm: 'Public Domain Mark', 'cc-by': 'CC BY', 'cc-by-sa': 'CC BY-SA', pixabay: 'Pixabay licence',
        },
    },
    {
        name: 'orientation', title: 'Orientation', word: 'orientation',
        labels: { landscape: 'Landscape', portrait: 'Portrait', square: 'Square' },
    },
    {
        name: 'size', title: 'Size', word: 'size',
        labels: { small: 'Small', medium: 'Medium', large: 'Large' },
        hints: { small: 'under 640 px', medium: '640–1,599 px', large: '1,600 px and more' },
    },
    {
        name: 'color', title: 'Colour', word: 'colour', swatches: true,
        labels: {
            red: 'Red', orange: 'Orange', yellow: 'Yellow', green: 'Green', turquoise: 'Turquoise', blue: 'Blue',
            lilac: 'Lilac', pink: 'Pink', white: 'White', gray: 'Grey', black: 'Black', brown: 'Brown',
            grayscale: 'Black and white', transparent: 'Transparent',
        },
    },
    {
        name: 'type', title: 'Type', word: 'type',
        labels: { photo: 'Photo', illustration: 'Illustration', vector: 'Vector graphic' },
    },
];

export const filterDefinition = (name) => FILTERS.find((filter) => filter.name === name);

/** The values a definition lists, in order (its switch first). */
export const listedValues = (filter) => [
    ...(filter.switch ? [filter.switch] : []),
    ...(filter.parts ? filter.parts.flatMap((part) => part.values) : Object.keys(filter.labels)),
];

/** The values a chip or the sheet shows for filter `name`: those chosen, but the bar's switch. */
export const panelValues = (filters, name) =>
    chosen(filters, name).filter((value) => value !== filterDefinition(name).switch);

/** The filters an address names (`URLSearchParams`): `{ color: 'red', … }`, empty values left out. */
export function readFilters(params) {
    const filters = {};
    for (const { name } of FILTERS) {
        const value = params.get(name);
        if (value) filters[name] = value;
    }
    return filters;
}

/** `[name, value]` pairs in the API's order, for a query string. */
export const filterEntries = (filters = {}) =>
    FILTERS.filter(({ name }) => filters[name]).map(({ name }) => [name, filters[name]]);

/** One string per set of filters: two searches show the same results only when it is equal. */
export const filterKey = (filters) => new URLSearchParams(filterEntries(filters)).toString();

/** The values chosen for filter `name`. */
export function chosen(filters, name) {
    const value = filters?.[name];
    if (!value) return [];
    return filterDefinition(name).multiple ? value.split(',').filter(Boolean) : [value];
}

/** `filters` with `value` of `name` turned on or off (another value of a single-valued filter is replaced). */
export function toggled(filters, name, value) {
    const next = { ...filters };
    const filter = filterDefinition(name);
    const values = chosen(filters, name);
    let result;
    if (values.includes(value)) result = values.filter((v) => v !== value);
    else if (filter.multiple) result = [...values, value];
    else result = [value];
    // Listed values in the bar's order, then any others in the order the address gave them.
    const listed = listedValues(filter);
    const rank = (v) => (listed.includes(v) ? listed.indexOf(v) : listed.length);
    result.sort((a, b) => rank(a) - rank(b));
    if (result.length) next[name] = result.join(',');
    else delete next[name];
    return next;
}

/** What a value is called on screen; a value the bar does not list is shown as the address spells it. */
export const valueLabel = (name, value) => filterDefinition(name)?.labels[value] ?? value;

/** "colour", "licence and size": filter names in words, for sentences. */
export function filterWords(names) {
    const words = names.map((name) => filterDefinition(name)?.word ?? name);
    return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** How many values are chosen across the chips (the sheet's count; the switch shows its own state). */
export const chosenCount = (filters) => FILTERS.reduce((sum, { name }) => sum + panelValues(filters, name).length, 0);

// MARK: - Only what I may use

export const REUSABLE = 'reusable';

/** Whether "Only what I may use" is on: `license` names `reusable`. */
export const mayUseOnly = (filters) => chosen(filters, 'license').includes(REUSABLE);

/** `filters` with "Only what I may use" on or off, the other licence values kept. */
export const withMayUseOnly = (filters, on) =>
    (mayUseOnly(filters) === on ? { ...filters } : toggled(filters, 'license', REUSABLE));

/**
 * Whether the licence filter keeps out every all-rights-reserved item, and so every store item (iTunes' terms):
 * a fact named (reuse, commercial use, modification), or licence ids without `all-rights-reserved`.
 */
export function excludesAllRightsReserved(filters) {
    const values = chosen(filters, 'license');
    const facts = [REUSABLE, 'commercial', 'modification'];
    const ids = values.filter((value) => !facts.includes(value));
    return values.some((value) => facts.includes(value)) || (ids.length > 0 && !ids.includes('all-rights-reserved'));
}
