// What the page says when a service could not answer: its own calm words per error code. The API's
// `message` is for whoever runs the server (it may name a setting); a person searching cannot act on that.
import { h } from './dom.js';
import { filterWords } from './filters.js';

const WORDS = {
    unreachable: (name) => `Couldn’t reach ${name}.`,
    timeout: (name) => `${name} took too long to answer.`,
    rate_limited: (name) => `${name} is busy right now.`,
    service_error: (name) => `${name} is having trouble right now.`,
    bad_response: (name) => `${name} sent an answer Tessera could not read.`,
    invalid_key: (name) => `${name} is not set up correctly on this server.`,
    source_rejected: (name) => `${name} could not run this search.`,
};

/** One line for a service that failed with `code` (the API's `error.code`). */
export function failureText(code, name) {
    return (WORDS[code] ?? ((n) => `${n} could not answer.`))(name);
}

/**
 * A section whose service cannot apply some of the filters (`unsupported_filter`): it shows this instead of
 * results, since unfiltered ones would pass for filtered. `names` are the API's (`section.filters.unsupported`).
 */
function unsupportedText(names, title) {
    if (!names?.length) return `${title} can’t apply these filters, so it shows nothing here.`;
    const words = filterWords(names);
    return `${title} can’t filter by ${words}, so it shows nothing here. `
        + `Leave ${names.length === 1 ? 'that filter' : 'those filters'} out to see its results.`;
}

/** The discreet note for a section whose filters Tessera applied to the service's answer itself. */
export function checkedText(names, { capital = false } = {}) {
    const words = filterWords(names);
    return `${capital ? words[0].toUpperCase() + words.slice(1) : words} checked by Tessera`;
}

/** The line a section shows in place of its results when it cannot apply a filter (`className` adds to it). */
export const filterNote = (section, title, className = '') => h('p', { class: `filter-note ${className}`.trim(),
    role: 'status' }, unsupportedText(section.filters?.unsupported, title ?? section.id));

/**
 * Shows `message` in `banners`: one per service (`id`, its source), in section order whichever answered
 * first, or the only one. With `retry`, a "Try again" button that takes the banner away and calls it.
 */
export function showBanner(banners, catalog, message, id, retry) {
    const banner = h('div', { class: 'banner notice', role: 'status', 'data-source': id }, message);
    if (retry) {
        banner.append(h('button', { type: 'button' }, 'Try again'));
        banner.lastChild.addEventListener('click', () => {
            banner.remove();
            retry();
        });
    }
    if (!id) {
        banners.replaceChildren(banner);
        return;
    }
    banners.querySelector(`[data-source="${CSS.escape(id)}"]`)?.remove();
    const rank = (source) => catalog.sections.findIndex((section) => section.source === source);
    const after = [...banners.children].find((other) => rank(other.dataset.source) > rank(id));
    banners.insertBefore(banner, after ?? null);
}
