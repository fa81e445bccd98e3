// The query rule, as the server keeps it: 1–100 characters after trimming, counted in code points as the
// server and the API's JSON Schema count them (docs/api.md); and what the page says when a query breaks it.

export const MAX_QUERY = 100;

const queryLength = (query) => [...query.trim()].length;

export function validQuery(query) {
    const length = queryLength(query);
    return length >= 1 && length <= MAX_QUERY;
}

export function lengthMessage(query) {
    const length = queryLength(query);
    return length === 0
        ? 'Type something to search for.'
        : `Searches are at most ${MAX_QUERY} characters; this one has ${length}.`;
}
