// The filter bar over the results: on a desktop a chip per filter, each opening a small panel of choices; on
// a phone (below 600 px) one "Filters" button opening a sheet with every filter. Both are drawn from the
// same definitions (filters.js) and show the same state; CSS shows the one that fits. Every choice is a
// toggle button (`aria-pressed`) and goes to the address at once, which runs the search again: the bar
// keeps no state the address does not have. "Only what I may use" is a switch on the bar itself at every size,
// a licence value (`reusable`) kept out of the licence panel; Clear all leaves it as it is.
import { $, $$, h } from '../shared/dom.js';
import {
    FILTERS, REUSABLE, chosen, chosenCount, filterDefinition, listedValues, mayUseOnly, panelValues, toggled,
    valueLabel, withMayUseOnly,
} from '../shared/filters.js';
import { rememberMayUseOnly } from './reuse.js';

export class FilterBar {
    /** `onChange(filters)` when a choice is made; the caller puts them in the address. */
    constructor(onChange) {
        this.onChange = onChange;
        this.filters = {};
        this.bar = $('#filter-bar');
        this.chips = FILTERS.map((filter) => this.chip(filter));
        this.clearButton = h('button', { type: 'button', class: 'filter-clear', hidden: true }, 'Clear all');
        this.openButton = h('button', { type: 'button', class: 'filter-open', 'aria-haspopup': 'dialog' },
            'Filters', h('span', { class: 'filter-count', hidden: true }));
        this.reuseSwitch = h('button', { type: 'button', class: 'chip reuse', 'data-filter': 'license',
            'data-value': REUSABLE, 'aria-pressed': 'false' },
        h('span', { class: 'reuse-mark', 'aria-hidden': 'true' }), valueLabel('license', REUSABLE));
        this.bar.append(this.reuseSwitch, this.openButton,
            h('div', { class: 'filter-chips' }, this.chips.map((c) => c.group)), this.clearButton);
        this.sheet = this.buildSheet();
        document.body.append(this.sheet);

        for (const root of [this.bar, this.sheet]) {
            root.addEventListener('click', (event) => {
                const option = event.target.closest('button[data-filter]');
                if (option) this.choose(option);
            });
        }
        this.clearButton.addEventListener('click', () => this.clearAll());
        this.openButton.addEventListener('click', () => this.sheet.showModal());
        // A chip's panel closes on Escape (focus back to its chip), a click elsewhere, or focus leaving it.
        this.bar.addEventListener('keydown', (event) => {
            const open = this.chips.find((chip) => !chip.panel.hidden);
            if (event.key !== 'Escape' || !open) return;
            event.stopPropagation();
            this.closePanels();
            open.button.focus();
        });
        this.bar.addEventListener('focusout', (event) => {
            const group = event.target.closest('.filter-group');
            if (group && !group.contains(event.relatedTarget) && event.relatedTarget) this.closePanels();
        });
        document.addEventListener('click', (event) => {
            if (!event.target.closest?.('.filter-group')) this.closePanels();
        });
    }

    /** Shows `filters` (from the address) as chosen. */
    show(filters) {
        this.filters = { ...filters };
        const count = chosenCount(filters);
        for (const { filter, button } of this.chips) {
            const values = panelValues(filters, filter.name);
            button.classList.toggle('active', values.length > 0);
            button.firstChild.textContent = values.length === 0 ? filter.title
                : values.length === 1 ? `${filter.title}: ${valueLabel(filter.name, values[0])}`
                    : `${filter.title}: ${values.length}`;
        }
        for (const root of [this.bar, this.sheet]) this.showExtras(root);
        for (const option of $$('button[data-filter]', this.bar).concat($$('button[data-filter]', this.sheet))) {
            const on = chosen(filters, option.dataset.filter).includes(option.dataset.value);
            option.setAttribute('aria-pressed', String(on));
        }
        this.clearButton.hidden = count === 0;
        this.sheetClear.disabled = count === 0;
        const badge = this.openButton.querySelector('.filter-count');
        badge.hidden = count === 0;
        badge.textContent = String(count);
        this.openButton.setAttribute('aria-label', count ? `Filters, ${count} chosen` : 'Filters');
    }

    choose(option) {
        const { filter: name, value } = option.dataset;
        if (value === REUSABLE) rememberMayUseOnly(!mayUseOnly(this.filters));
        // A single choice closes its chip's panel; licences (several at once) leave it open.
        if (!filterDefinition(name).multiple && option.closest('.filter-panel')) {
            this.closePanels();
            option.closest('.filter-group').querySelector('.chip').focus();
        }
        this.onChange(toggled(this.filters, name, value));
    }

    clearAll() {
        this.closePanels();
        this.onChange(withMayUseOnly({}, mayUseOnly(this.filters)));
    }

    closePanels() {
        for (const { button, panel } of this.chips) {
            panel.hidden = true;
            button.setAttribute('aria-expanded', 'false');
        }
    }

    // MARK: - Drawing

    /** A desktop chip: a button that opens the panel of its filter's choices under it. */
    chip(filter) {
        const id = `filter-panel-${filter.name}`;
        const button = h('button', {
            type: 'button', class: 'chip', 'aria-expanded': 'false', 'aria-controls': id, 'data-chip': filter.name,
        }, filter.title, h('span', { class: 'chip-caret', 'aria-hidden': 'true' }, '▾'));
        const panel = h('div', { class: 'filter-panel', id, role: 'group', 'aria-label': filter.title, hidden: true },
            this.choices(filter));
        button.addEventListener('click', () => {
            const opening = panel.hidden;
            this.closePanels();
            panel.hidden = !opening;
            button.setAttribute('aria-expanded', String(opening));
            if (opening) panel.querySelector('button')?.focus();
        });
        return { filter, button, panel, group: h('div', { class: 'filter-group' }, button, panel) };
    }

    /** The phone's sheet: every filter under its heading, Clear all, and Show results to close it. */
    buildSheet() {
        this.sheetClear = h('button', { type: 'button', class: 'filter-clear' }, 'Clear all');
        this.sheetClear.addEventListener('click', () => this.clearAll());
        const head = h('div', { class: 'sheet-head' },
            h('h2', { id: 'filter-title' }, 'Filters'),
            h('button', { type: 'button', class: 'icon', 'data-close': true, 'aria-label': 'Close' }, '×'));
        const sections = FILTERS.map((filter) => h('section', { 'aria-labelledby': `filter-h-${filter.name}` },
            h('h3', { id: `filter-h-${filter.name}` }, filter.title), this.choices(filter)));
        const foot = h('div', { class: 'sheet-foot' }, this.sheetClear,
            h('button', { type: 'button', class: 'primary', 'data-close': true }, 'Show results'));
        const sheet = h('dialog', { id: 'filter-sheet', class: 'sheet', 'aria-labelledby': 'filter-title' },
            head, h('div', { class: 'sheet-body' }, sections), foot);
        sheet.addEventListener('click', (event) => {
            const box = sheet.getBoundingClientRect();
            const outside = event.target === sheet && (event.clientY < box.top || event.clientY > box.bottom
                || event.clientX < box.left || event.clientX > box.right);
            if (outside || event.target.closest('[data-close]')) sheet.close();
        });
        return sheet;
    }

    /** A filter's choices as toggle buttons (colours as swatches), in its parts when it has them. */
    choices(filter) {
        const list = (values, label) => h('div', {
            class: filter.swatches ? 'choices swatches' : 'choices', role: 'group', 'aria-label': label,
            'data-values': filter.name,
        }, values.map((value) => this.option(filter, value)));
        if (!filter.parts) return list(listedValues(filter), filter.title);
        return filter.parts.map((part) => h('div', { class: 'choice-part' },
            h('p', { class: 'choice-title', 'aria-hidden': 'true' }, part.title), list(part.values, part.title)));
    }

    option(filter, value) {
        const label = valueLabel(filter.name, value);
        const attributes = { type: 'button', class: 'option', 'data-filter': filter.name, 'data-value': value,
            'aria-pressed': 'false' };
        if (filter.swatches) {
            return h('button', { ...attributes, class: 'option swatch', 'aria-label': label, title: label },
                h('span', { class: 'swatch-dot', 'data-color': value, 'aria-hidden': 'true' }));
        }
        const hint = filter.hints?.[value];
        return h('button', attributes, label, hint ? h('span', { class: 'hint' }, ` (${hint})`) : null);
    }

    /** Licence ids the address names that the bar does not list: shown chosen, so they can be turned off. */
    showExtras(root) {
        for (const filter of FILTERS.filter((f) => f.multiple)) {
            const lists = $$(`[data-values="${filter.name}"]`, root);
            const target = lists[lists.length - 1];
            const values = panelValues(this.filters, filter.name);
            for (const extra of $$('button.extra', target)) {
                if (!values.includes(extra.dataset.value)) extra.remove();
            }
            for (const value of values) {
                const selector = `button[data-filter="${filter.name}"][data-value="${CSS.escape(value)}"]`;
                if (root.querySelector(selector)) continue;
                const option = this.option(filter, value);
                option.classList.add('extra');
                target.append(option);
            }
        }
    }
}
