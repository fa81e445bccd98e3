// What the page says when a service could not answer: its own calm words per error code. The API's
// `message` is for whoever runs the server (it may name a setting); a person searching cannot act on that.
import { h } from '../shared/dom.js';
import { filterWords } from '../shared/filters.js';

/** "Pixabay", "Pixabay and Flickr", "Pixabay, Flickr and Openverse". */
export function nameList(names) {
    return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The page's words per error code, for one service or several that failed the same way. A `rate_limited`
 * section is the service's own limit or Tessera's budget for it (docs/sources.md): the service's, never the
 * person's; `retryAfter` (seconds) says whether it is this minute's.
 */
const WORDS = {
    unreachable: (names) => `Couldn’t reach ${nameList(names)}.`,
    timeout: (names) => `${nameList(names)} took too long to answer.`,
    rate_limited: (names, retryAfter) => {
        const period = retryAfter != null && retryAfter <= 60 ? 'this minute' : 'now';
        return names.length === 1
            ? `${names[0]}’s limit for ${period} is used up.`
            : `The limits of ${nameList(names)} for ${period} are used up.`;
    },
    service_error: (names) => `${nameList(names)} ${names.length === 1 ? 'is' : 'are'} having trouble right now.`,
    bad_response: (names) => `${nameList(names)} sent ${names.length === 1 ? 'an answer' : 'answers'} `
        + 'Tessera could not read.',
    invalid_key: (names) => `${nameList(names)} ${names.length === 1 ? 'is' : 'are'} not set up correctly `
        + 'on this server.',
    source_rejected: (names) => `${nameList(names)} could not run this search.`,
};

/** The codes a wait can mend, which the page tries again by itself after a while (retryline.js). */
const PASSING = new Set(['unreachable', 'timeout', 'rate_limited', 'service_error', 'bad_response']);

/** One line for the services `names` that failed with `code` (the API's `error.code`). */
export function failureText(code, names, retryAfter = null) {
    return (WORDS[code] ?? ((n) => `${nameList(n)} could not answer.`))(names, retryAfter);
}

/** Whether a failure with `code` may pass by itself, so that trying again later by itself makes sense. */
export const mayPass = (code) => PASSING.has(code);

/**
 * The line for a search request to this server that failed (an `APIError`): only the server's own fair-use
 * limit for the person's address (`rate_limited` for the request as a whole, where a service's own limit
 * comes in its section) says the person searched too often.
 */
export function requestFailureText(error) {
    if (error.code === 'rate_limited') return 'Too many searches from your address for now.';
    return error.message;
}

/**
 * What a request to this server may fail with and then work later unchanged: the server out of reach, its
 * fair-use limits, its own trouble (a database or data folder away, an unexpected error). An answer without
 * the API's body (a proxy's page) has only its status to go by: `http_429` and `http_5xx` (api.js).
 */
const REQUEST_PASSING = new Set([
    'network', 'offline', 'rate_limited', 'too_many_streams', 'internal_error', 'database_unavailable',
    'data_folder_unavailable', 'storage_failed',
]);

/** Whether the request that failed with `error` (an `APIError`) may work later without anyone changing it. */
export const requestMayPass = (error) =>
    REQUEST_PASSING.has(error.code) || mayPass(error.code) || /^http_(429|5\d\d)$/.test(error.code);

/** Said once, alone, when every service failed to connect: the trouble is this server's way out. */
export const ALL_UNREACHABLE = 'Couldn’t reach any service — check this server’s connection.';

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
