// One picture, shown once (docs/duplicates.md): the search stream's `groups` event names the items of a page that
// are copies of one picture. Each group folds into one tile: the representative's own (the copy whose licence
// allows the most, as the server chose it), in its own section's row, saying where the other copies are.
import { h, formatNumber } from '../shared/dom.js';
import { nameList } from './failures.js';
import { linkName } from '../shared/tiles.js';

/** "Flickr", "Flickr and Openverse", "Flickr, Openverse and Wikimedia Commons": for the screen reader. */
const spoken = (names) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

export class Folding {
    /** `results` (results.js) holds the items, their sections and the tiles; `makeTile(item)` draws one. */
    constructor(results, makeTile) {
        this.results = results;
        this.makeTile = makeTile;
        this.reset();
    }

    reset() {
        /** Item id → its group (`items`, the representative first, and `representative`). */
        this.groupOf = new Map();
        /** The copies whose tile went into another one. */
        this.folded = new Set();
    }

    /** The copies of the picture `id` is one of, the representative (most permissive) first; null if none. */
    copies(id) {
        const group = this.groupOf.get(id);
        return group ? group.items.map((member) => this.results.items.get(member)).filter(Boolean) : null;
    }

    /** The section title a copy is shown under (its section's, else its service's). */
    place(id) {
        const { catalog, owners, items } = this.results;
        return catalog.section(owners.get(id))?.title ?? catalog.sourceTitle(items.get(id)?.source);
    }

    /** Folds each group of a page (`groups` of the stream's event) whose copies are on the page. */
    apply(groups) {
        const { container, items } = this.results;
        for (const group of groups) {
            const members = group.items.filter((id) => items.has(id) && !this.groupOf.has(id));
            if (members.length < 2) continue;
            // Document order is the page's: sections in their fixed order, a grid in its order.
            const tiles = [...container.querySelectorAll('.tile[data-id]')]
                .filter((element) => members.includes(element.dataset.id));
            if (tiles.length < 2) continue;
            const representative = members.includes(group.representative) ? group.representative : members[0];
            const ordered = [representative, ...members.filter((id) => id !== representative)];
            const recorded = { items: ordered, representative };
            for (const id of ordered) this.groupOf.set(id, recorded);
            // The representative's own tile, in its own section's row: a Commons picture never stands in
            // Openverse's. Were it missing (its row's tail is drawn first), the first copy's place would take it.
            let shown = tiles.find((element) => element.dataset.id === representative);
            if (!shown) {
                shown = this.makeTile(items.get(representative));
                tiles[0].replaceWith(shown);
            }
            for (const element of tiles) if (element !== shown) element.remove();
            for (const id of ordered.slice(1)) this.folded.add(id);
            this.label(shown, items.get(representative), ordered.slice(1));
        }
        this.noteEmptyRows();
    }

    /** The tile's line, "also on Flickr, Openverse", and its link's name for a screen reader. */
    label(element, item, others) {
        // Never the row it stands in (in one service's grid, the representative's own section).
        const row = element.closest('.section')?.dataset.section;
        const own = row ? this.results.catalog.section(row)?.title ?? row : this.place(item.id);
        const elsewhere = [...new Set(others.map((id) => this.place(id)))].filter((name) => name !== own);
        const text = elsewhere.length ? `also on ${elsewhere.join(', ')}` : `${others.length + 1} copies here`;
        const words = elsewhere.length ? `also on ${spoken(elsewhere)}` : `${others.length + 1} copies here`;
        element.classList.add('grouped');
        element.querySelector('.tile-copies')?.remove();
        element.querySelector('a').append(h('span', { class: 'tile-copies', 'aria-hidden': 'true' }, text));
        element.querySelector('a').setAttribute('aria-label', linkName(item, words));
    }

    /**
     * A row whose every picture folded into other rows' tiles says where they are, rather than leaving a gap
     * under its name.
     */
    noteEmptyRows() {
        const { container, owners } = this.results;
        for (const section of container.querySelectorAll('.section:not(.pending)')) {
            const strip = section.querySelector('.strip');
            if (!strip || strip.querySelector('.tile') || this.results.tails.holdsAny(strip)) continue;
            const id = section.dataset.section;
            const rows = [...new Set([...this.folded].filter((copy) => owners.get(copy) === id)
                .map((copy) => this.place(this.groupOf.get(copy).representative)))];
            section.classList.add('folded');
            strip.replaceWith(h('p', { class: 'fold-note', role: 'note' }, rows.length
                ? `Every picture here is shown once with its other copies, under ${nameList(rows)}.`
                : 'Every picture here is shown once with its other copies.'));
        }
    }

    /** What the summary adds, so the count of results stays the count of results. */
    summaryText() {
        const count = this.folded.size;
        if (!count) return '';
        if (count === 1) return ' · 1 copy shown with its picture';
        return ` · ${formatNumber(count)} copies shown with their pictures`;
    }
}
