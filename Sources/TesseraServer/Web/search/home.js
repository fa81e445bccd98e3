// The start page: which services a search reaches, and, for those that are off, where to read how to turn
// them on; and "Only what I may use" beside the search field, which its searches and examples follow. No
// setting's name here: the linked setup page carries those, for whoever runs the server.
import { $, $$ } from '../shared/dom.js';
import { withMayUseOnly } from '../shared/filters.js';
import { routeOf, searchURL } from '../shared/routes.js';
import { rememberMayUseOnly, rememberedMayUseOnly } from './reuse.js';

/** Lists the services that are on and off, by name, from the catalog (`/api/sources`). */
export function showServices(catalog) {
    const names = (enabled) => [...new Set(catalog.sources.filter((s) => s.enabled === enabled).map((s) => s.title))];
    const on = names(true);
    const off = names(false);
    $('#services').hidden = on.length + off.length === 0;
    $('#services-on').textContent = on.length ? `${list(on)}.` : 'No service is on yet.';
    $('#services-off').hidden = off.length === 0;
    // Most need a free key from the service, "your photos" a folder: the setup page says which and how.
    $('#services-off-text').textContent = `${list(off)} ${off.length === 1 ? 'is' : 'are'} off.`;
}

function list(names) {
    return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The start page's switch: shown with the start page, its state the one remembered (reuse.js). */
export class StartSwitch {
    constructor() {
        this.button = $('#home-reuse');
        this.button.addEventListener('click', () => {
            rememberMayUseOnly(!this.on);
            this.show();
        });
    }

    get on() {
        return this.button.getAttribute('aria-pressed') === 'true';
    }

    /** Shows the switch (with the start page) or hides it; each example's address follows it. */
    show(visible = true) {
        this.button.hidden = !visible;
        if (!visible) return;
        const on = rememberedMayUseOnly();
        this.button.setAttribute('aria-pressed', String(on));
        for (const link of $$('#home .examples a')) {
            const route = routeOf(link.href);
            link.setAttribute('href', searchURL({ ...route, filters: withMayUseOnly({}, on) }));
            // Films and music hold nothing that may be reused: those examples would find nothing.
            link.closest('li').hidden = on && link.closest('li').hasAttribute('data-store');
        }
    }
}
