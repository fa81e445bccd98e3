// The search page: the start page, or the results of the search the address names with the filter bar over
// them, and the ways to add a result to a gallery (each tile's button and the picker, the panel beside the
// results). A result opens in the detail view over the results, which stay as they are underneath.
import { $ } from '../shared/dom.js';
import * as router from '../shared/router.js';
import { itemURL, searchURL } from '../shared/routes.js';
import { FilterBar } from './filterbar.js';
import { StartSwitch, showServices } from './home.js';
import { withMayUseOnly } from '../shared/filters.js';
import { rememberedMayUseOnly } from './reuse.js';
import { GalleryPanel } from './panel.js';
import { GalleryPicker } from './picker.js';
import { lengthMessage, validQuery } from './query.js';
import { Results } from './results.js';

export class SearchScreen {
    /** `box` is the bar's search box (searchbox.js), which works before the catalog is known. */
    constructor(catalog, box) {
        this.catalog = catalog;
        this.box = box;
        showServices(catalog);
        this.startSwitch = new StartSwitch();
        /** Until the first address is drawn: a visit's first search starts with the switch as last left. */
        this.fresh = true;
        this.results = new Results(catalog);
        this.results.onTagChange = (tag) => {
            const route = router.current();
            if (route.view === 'search') router.note(searchURL({ ...route, tag }));
        };
        // A choice in the filter bar is a new address: Back returns to the filters before it.
        this.filterBar = new FilterBar((filters) => {
            const route = router.current();
            if (route.view === 'search') router.go(searchURL({ ...route, filters }));
        });
        this.picker = new GalleryPicker();
        this.panel = new GalleryPanel((id) => this.results.items.get(id));
        // A tile's own "Add to gallery" button opens the picker for that result.
        document.addEventListener('click', (event) => {
            const button = event.target.closest?.('button[data-add]');
            const item = button && this.results.items.get(button.dataset.add);
            if (item) this.picker.open(item);
        });
        document.addEventListener('click', (event) => {
            if (!router.isPlainClick(event)) return;
            const link = event.target.closest?.('a[data-item]');
            if (!link) return;
            const item = this.results.items.get(link.dataset.item);
            if (!item) return;
            event.preventDefault();
            router.go(itemURL(item), { state: { fromResults: true } });
        });
    }

    /**
     * Shows the search `route` names, keeping results already on screen for the same search as they are, or the
     * start page; a search that cannot run leaves the query in the box with why. `focus` gets the focus back.
     */
    show(route, focus) {
        const fresh = this.fresh;
        this.fresh = false;
        if (fresh && route.view === 'search' && !route.filters.license && rememberedMayUseOnly()) {
            router.go(searchURL({ ...route, filters: withMayUseOnly(route.filters, true) }), { replace: true });
            return;
        }
        if (route.view === 'search' && validQuery(route.q) && this.catalog.isScope(route.scope)) {
            this.box.show(route);
            this.display('results');
            this.filterBar.show(route.filters);
            if (this.results.shows(route)) {
                if (route.tag !== this.results.filter.tag) this.results.filter.set(route.tag);
                focus?.focus?.({ preventScroll: true });
            } else {
                this.results.start(route);
            }
            return;
        }
        if (route.view === 'search') {
            this.box.refuse(route.q ?? '', this.catalog.isScope(route.scope)
                ? lengthMessage(route.q)
                : `“${route.scope}” is not something Tessera can search.`);
        }
        this.results.stop();
        this.display('home');
        document.title = 'Tessera';
    }

    hide() {
        this.display(null);
    }

    /** Shows the start page (`home`), the results (`results`), or neither. */
    display(name) {
        $('#home').hidden = name !== 'home';
        $('#results-view').hidden = name !== 'results';
        this.startSwitch.show(name === 'home');
    }

    /** A loaded result, by its source and the source's own id. */
    item(source, id) {
        return this.results.items.get(`${source}:${id}`);
    }

    /** A result's link in the results, if it is there. */
    linkTo(item) {
        return document.querySelector(`#results a[data-item="${CSS.escape(item.id)}"]`);
    }

    /** The result shown before (-1) or after (1) `item` in the results (as filtered), or null. */
    neighbour(item, step) {
        this.results.tails.drawAll();
        const links = [...document.querySelectorAll('#results .tile:not([hidden]) a[data-item]')];
        const index = links.findIndex((link) => link.dataset.item === item.id);
        const link = index < 0 ? null : links[index + step] ?? null;
        return link ? this.results.items.get(link.dataset.item) ?? null : null;
    }

    /** A tag in the detail view filters the results it was opened from; elsewhere it is a search of its own. */
    tagURL(tag) {
        const route = router.current();
        const fromResults = route.view === 'item' && history.state?.fromResults && this.results.query;
        return fromResults ? searchURL({ ...this.results.query, tag }) : searchURL({ q: tag, scope: 'all' });
    }

    /** The copies of the picture result `id` is one of (groups.js), or null. */
    copies(id) {
        return this.results.folding.copies(id);
    }
}
