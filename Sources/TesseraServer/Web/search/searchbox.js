// The search box in the bar: the query and the scope picker. A search is an address: submitting the form, or
// committing another scope, goes to it, keeping the filters of the results on screen. It works from the
// page's first moment, before the sources are known (`fillScopes`).
import { $, h } from '../shared/dom.js';
import * as router from '../shared/router.js';
import { searchURL } from '../shared/routes.js';
import { withMayUseOnly } from '../shared/filters.js';
import { rememberedMayUseOnly } from './reuse.js';
import { lengthMessage, validQuery } from './query.js';

export class SearchBox {
    constructor() {
        this.form = $('#search-form');
        this.field = $('#q');
        this.scopes = $('#scope');
        this.message = $('#query-message');
        this.form.addEventListener('submit', (event) => {
            event.preventDefault();
            const q = this.field.value.trim();
            if (!validQuery(q)) {
                this.showMessage(lengthMessage(q));
                this.field.focus();
                return;
            }
            this.hideMessage();
            this.field.blur();
            router.go(searchURL({ q, scope: this.scopes.value, filters: shownFilters() }));
        });
        this.field.addEventListener('input', () => { if (validQuery(this.field.value)) this.hideMessage(); });
        this.watchScopes();
    }

    /** The scopes to choose from: "All", then every section, those that are off said so and disabled. */
    fillScopes(catalog) {
        const options = [h('option', { value: 'all' }, 'All')];
        for (const section of catalog.sections) {
            // Why a section is off names a setting (the API's `reason`), which the start page's setup link explains.
            const label = section.enabled ? section.title : `${section.title} (off)`;
            options.push(h('option', { value: section.id, disabled: !section.enabled }, label));
        }
        this.scopes.replaceChildren(...options);
    }

    /** Shows the search the address names. */
    show({ q, scope }) {
        this.field.value = q;
        this.scopes.value = scope;
        this.hideMessage();
    }

    /** A search that cannot run: what was typed stays, to be shortened, with why. */
    refuse(q, message) {
        this.field.value = q;
        this.showMessage(message);
    }

    showMessage(message) {
        this.message.textContent = message;
        this.message.hidden = false;
        this.field.setAttribute('aria-invalid', 'true');
    }

    hideMessage() {
        this.message.hidden = true;
        this.field.removeAttribute('aria-invalid');
    }

    /** For "/": the query, selected, to type over. */
    focus() {
        this.field.focus();
        this.field.select();
    }

    // The scope picker searches when a choice is committed: picked from its list (mouse, finger), Enter, or leaving
    // it. Arrow keys and type-ahead on the closed picker change its value at every key press: no search for each.
    watchScopes() {
        let byKey = false;
        let pending = false;
        const search = () => {
            pending = false;
            const q = this.field.value.trim();
            const route = router.current();
            const shown = route.view === 'search' && route.q === q && route.scope === this.scopes.value;
            if (!validQuery(q) || shown) return;
            router.go(searchURL({ q, scope: this.scopes.value, filters: shownFilters() }));
        };
        this.scopes.addEventListener('keydown', (event) => {
            if (event.key === 'Enter') {
                event.preventDefault();
                search();
            } else if (event.key === 'Escape') {
                const route = router.current();
                if (route.view === 'search' && this.offers(route.scope)) this.scopes.value = route.scope;
                pending = false;
            } else if (event.key !== 'Tab') {
                byKey = true;
            }
        });
        this.scopes.addEventListener('keyup', () => { byKey = false; });
        this.scopes.addEventListener('change', () => {
            if (byKey) pending = true;
            else search();
        });
        this.scopes.addEventListener('blur', () => { if (pending) search(); });
    }

    /** Whether `scope` is one the picker lists (every section the catalog knows, and "All"). */
    offers(scope) {
        return [...this.scopes.options].some((option) => option.value === scope);
    }
}

/**
 * A new query or scope keeps the filters of the results on screen; from anywhere else (the start page), none but
 * "Only what I may use" as it was last left (the start page's switch shows it).
 */
function shownFilters() {
    const route = router.current();
    return route.view === 'search' ? route.filters : withMayUseOnly({}, rememberedMayUseOnly());
}
