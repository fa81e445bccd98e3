// The tag filter: narrows the loaded results to items having a tag (case-insensitive). While the text
// typed is not yet a whole tag, items with a tag starting with it are shown, so the grid narrows as the
// user types; the datalist completes from the loaded tags. "All tags" lists every tag with its count.
import { $, h, formatNumber, afterNextPaint } from '../shared/dom.js';

export class TagFilter {
    constructor(onChange) {
        this.onChange = onChange;
        this.input = $('#tag-filter');
        this.options = $('#tag-options');
        this.sheet = $('#tags-sheet');
        this.counts = new Map();
        this.tag = '';
        this.input.addEventListener('input', () => this.set(this.input.value, { fromInput: true }));
        this.input.addEventListener('keydown', (event) => {
            if (event.key === 'Escape' && this.input.value) {
                event.stopPropagation();
                this.set('');
            }
        });
        $('#all-tags').addEventListener('click', () => this.openSheet());
        this.sheet.addEventListener('click', (event) => {
            const choice = event.target.closest('button[data-tag]');
            if (choice) {
                this.set(choice.dataset.tag);
                this.sheet.close();
            }
        });
    }

    reset(tag = '') {
        this.counts.clear();
        this.options.replaceChildren();
        this.tag = tag.trim().toLowerCase();
        this.input.value = this.tag;
    }

    set(value, { fromInput = false } = {}) {
        const tag = value.trim().toLowerCase();
        if (!fromInput) this.input.value = tag;
        if (tag === this.tag) return;
        this.tag = tag;
        this.onChange();
    }

    /** Counts the tags of newly loaded items. */
    add(items) {
        const before = this.counts.size;
        for (const item of items) {
            for (const tag of new Set((item.tags ?? []).map((t) => t.toLowerCase()))) {
                this.counts.set(tag, (this.counts.get(tag) ?? 0) + 1);
            }
        }
        // The suggestions are rebuilt once the results are drawn, once for every section arriving meanwhile:
        // sorting every tag for each of them held up the first paint (docs/duplicates.md).
        if (this.counts.size !== before && !this.optionsPending) {
            this.optionsPending = true;
            afterNextPaint().then(() => {
                this.optionsPending = false;
                const options = this.sorted().slice(0, 200).map(([tag]) => h('option', { value: tag }));
                this.options.replaceChildren(...options);
            });
        }
    }

    /** Tags by count, most frequent first, then alphabetically. */
    sorted() {
        return [...this.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    }

    /** Shows or hides each tile by the current tag. */
    apply(tiles) {
        const tag = this.tag;
        const exact = !tag || this.counts.has(tag);
        for (const tile of tiles) {
            const tags = tile.tags ?? [];
            tile.hidden = Boolean(tag) && !(exact ? tags.includes(tag) : tags.some((t) => t.startsWith(tag)));
        }
    }

    openSheet() {
        const entries = this.sorted();
        $('#tags-empty').hidden = entries.length > 0;
        $('#tags-list').replaceChildren(...entries.map(([tag, count]) =>
            h('li', {},
                h('button', { type: 'button', 'data-tag': tag, 'aria-pressed': String(tag === this.tag),
                    'aria-label': `${tag}, ${count} ${count === 1 ? 'item' : 'items'}` },
                tag, h('span', { class: 'n' }, formatNumber(count))))));
        this.sheet.showModal();
    }
}
