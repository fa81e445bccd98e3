// The start page: which services a search reaches, and, for those that are off, where to read how to turn
// them on. No setting's name here: the linked setup page carries those, for whoever runs the server.
import { $ } from '../shared/dom.js';

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
