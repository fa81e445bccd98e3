// The JSON API, as the product sheet describes it. Every failure becomes an APIError with a sentence a
// user can act on; an aborted request rejects with the browser's AbortError, which callers ignore.
import { filterEntries } from './filters.js';
import { readEvents } from './eventstream.js';

/**
 * A request that failed. It carries the API's `code` (docs/openapi.yaml), which is what a caller decides by,
 * and no HTTP status: several codes share one status, and one code may come with another status elsewhere.
 * An answer without the API's body is `http_{status}` (a proxy's page); no answer at all is `network`, or
 * `offline` when the browser knows it is.
 */
export class APIError extends Error {
    /** `retryAfter`: whole seconds to wait before asking again (a 429's `Retry-After`), when the server said. */
    constructor(code, message, retryAfter = null, duplicateOf = null) {
        super(message);
        this.code = code;
        this.retryAfter = retryAfter;
        /** A `near_duplicate` refusal's picture already in the gallery: `{id, title, thumbnail}`. */
        this.duplicateOf = duplicateOf;
    }
}

async function getJSON(url, signal) {
    return (await send('GET', url, { signal })).body;
}

/**
 * One request: `json` is sent as a JSON body, `form` (FormData) as multipart. Answers the parsed body and,
 * for answers about one gallery, the revision its `ETag` names (`"17"` → 17).
 */
async function send(method, url, { json, form, signal } = {}) {
    // X-Tessera-Client: a header no other site's page can add, so the server knows a change came from here.
    const headers = { accept: 'application/json', 'x-tessera-client': 'web' };
    let body;
    if (json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(json);
    } else if (form) {
        body = form; // the browser writes the multipart boundary itself
    }
    const response = await reach(url, { method, body, signal, headers });
    const answer = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) {
        // Not from a public link's page (/s/…), whose visitors have no account to sign in with.
        if (answer?.error?.code === 'sign_in_required' && !/^\/(login|s\/)/.test(location.pathname)) {
            // The session ended (idle, signed out elsewhere): sign in again, then come back here.
            location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
        }
        throw refusal(response, answer, 'The server');
    }
    const tag = response.headers.get('etag')?.match(/\d+/);
    return { body: answer, revision: tag ? Number(tag[0]) : answer?.revision ?? null };
}

/** `fetch`, with a server out of reach as an APIError. */
async function reach(url, options) {
    try {
        return await fetch(url, options);
    } catch (error) {
        throw unreachable(error);
    }
}

/** What to throw when a request could not be made or its body not read; an abort stays an AbortError. */
function unreachable(error) {
    if (error.name === 'AbortError') return error;
    return new APIError(navigator.onLine ? 'network' : 'offline',
        navigator.onLine ? 'Tessera is not answering. Is the server running?' : 'You are offline.');
}

/** An answer that is not 2xx: the server's own code and sentence (`{"error": …}`) when it sent them. */
function refusal(response, answer, who) {
    return failure(response.status, answer, who, response.headers.get('retry-after'));
}

function failure(status, answer, who, retryHeader) {
    const seconds = Number(retryHeader ?? answer?.error?.retryAfter);
    return new APIError(answer?.error?.code ?? `http_${status}`, answer?.error?.message ?? `${who} answered ${status}.`,
        Number.isFinite(seconds) && seconds > 0 ? seconds : null, answer?.error?.duplicateOf ?? null);
}

export const sources = () => getJSON('/api/sources');

/** A search's query string: the query, scope and page, then the filters (filters.js). */
const searchParams = (q, scope, page, filters) =>
    new URLSearchParams([['q', q], ['scope', scope], ['page', String(page)], ...filterEntries(filters)]);

export const search = (q, scope, page, signal, filters) =>
    getJSON(`/api/search?${searchParams(q, scope, page, filters)}`, signal);

export const item = (source, id, signal) =>
    getJSON(`/api/items/${encodeURIComponent(source)}/${encodeURIComponent(id)}`, signal);

/**
 * Which galleries already hold these items (by `Item.id`): `{ id: [{ id, name }] }` for the held ones only.
 * Asked 100 at a time, the most the server takes in one question.
 */
export async function galleriesHolding(ids, signal) {
    const holding = {};
    for (let start = 0; start < ids.length; start += 100) {
        const params = new URLSearchParams(ids.slice(start, start + 100).map((id) => ['id', id]));
        Object.assign(holding, (await getJSON(`/api/items/galleries?${params}`, signal)).items);
    }
    return holding;
}

/** An image's bytes (a download). The image proxy answers failures as JSON, as the API does. */
export async function imageBytes(url, signal) {
    const response = await reach(url, { signal });
    if (!response.ok) throw refusal(response, await response.json().catch(() => null), 'The image server');
    try {
        return await response.blob();
    } catch (error) {
        throw unreachable(error);
    }
}

/** Why an image URL failed: the proxy answers errors as JSON. */
export async function imageError(url) {
    try {
        const response = await fetch(url);
        if (response.ok) return null;
        const body = await response.json();
        return body?.error?.message ?? `The image server answered ${response.status}.`;
    } catch {
        return navigator.onLine ? 'The image could not be loaded.' : 'You are offline.';
    }
}

/**
 * `/api/search/stream`: calls `onSection` as each source's section arrives, `onGroups` with the copies of one
 * picture among the page's items (docs/duplicates.md), then `onDone`. `onFailure` when the stream breaks before
 * `done`. Returns a function that stops listening.
 */
export function streamSearch(q, scope, filters, { page = 1, onSection, onGroups, onDone, onFailure }) {
    const controller = new AbortController();
    let finished = false;
    const stop = () => {
        finished = true;
        controller.abort();
    };
    const url = `/api/search/stream?${searchParams(q, scope, page, filters)}`;
    readEvents(url, controller.signal, (type, data) => {
        if (finished) return;
        // A fault in drawing one section is reported like an event listener's, and the stream goes on.
        try {
            if (type === 'section') onSection(JSON.parse(data));
            else if (type === 'groups') onGroups?.(JSON.parse(data).groups ?? []);
            else if (type === 'done') {
                stop();
                onDone();
            }
        } catch (error) {
            reportError(error);
        }
    }).then(() => {
        throw new Error('The stream ended before it was done.');
    }).catch(() => {
        if (finished) return;
        stop();
        onFailure();
    });
    return stop;
}

/**
 * One page of one section through the stream, so that its groups come too: resolves like `search` as soon as
 * the section is there (`onGroups` is called later, once the server has grouped the page). A broken stream
 * falls back to `search`, without groups.
 */
export function searchPage(q, scope, page, signal, filters, onGroups) {
    return new Promise((resolve, reject) => {
        let answered = false;
        const answer = (sections) => {
            if (answered) return;
            answered = true;
            resolve({ sections });
        };
        const stop = streamSearch(q, scope, filters, {
            page,
            onSection: (section) => answer([section]),
            onGroups: (groups) => { if (!signal.aborted) onGroups(groups); },
            onDone: () => answer([]),
            onFailure: () => {
                if (answered) return;
                answered = true;
                search(q, scope, page, signal, filters).then(resolve, reject);
            },
        });
        signal.addEventListener('abort', () => {
            stop();
            if (!answered) {
                answered = true;
                reject(new DOMException('The search was stopped.', 'AbortError'));
            }
        }, { once: true });
    });
}

// MARK: - Galleries (docs/galleries.md)

const galleryPath = (id) => `/api/galleries/${encodeURIComponent(id)}`;

export const galleries = ({ deleted = false, signal } = {}) =>
    getJSON(deleted ? '/api/galleries?deleted=true' : '/api/galleries', signal);

/** The galleries the user may add to: with accounts, not those shared with them to view only. */
export const writableGalleries = async (options) =>
    (await galleries(options)).filter((gallery) => gallery.role !== 'viewer');
export const gallery = (id, signal) => getJSON(galleryPath(id), signal);

export const createGallery = async (name) => (await send('POST', '/api/galleries', { json: { name } })).body;

export const renameGallery = async (id, name) => (await send('PATCH', galleryPath(id), { json: { name } })).body;

/** To Recently deleted; with `permanent`, for good. */
export const deleteGallery = async (id, { permanent = false } = {}) =>
    (await send('DELETE', galleryPath(id) + (permanent ? '?permanent=true' : ''))).body;

export const restoreGallery = async (id) => (await send('POST', `${galleryPath(id)}/restore`)).body;

/**
 * Adds `{item}` (a search result), `{url}` or `{file}` (an upload) at `index` (at the end when missing).
 * Answers `{item: GalleryItem, revision}`. Refused with `near_duplicate` when the gallery has the same
 * picture, unless `allowNearDuplicate` (neardup.js asks).
 */
export async function addToGallery(id, { item, url, file, index, allowNearDuplicate }, signal) {
    const path = `${galleryPath(id)}/items`;
    let options;
    if (file) {
        const form = new FormData();
        form.append('file', file, file.name || 'image');
        if (index != null) form.append('index', String(index));
        if (allowNearDuplicate) form.append('allowNearDuplicate', 'true');
        options = { form, signal };
    } else {
        const json = item ? { item } : { url };
        if (index != null) json.index = index;
        if (allowNearDuplicate) json.allowNearDuplicate = true;
        options = { json, signal };
    }
    const { body, revision } = await send('POST', path, options);
    return { item: body, revision };
}

/** Answers `{revision}`. */
export const removeFromGallery = async (id, itemID) =>
    (await send('DELETE', `${galleryPath(id)}/items/${encodeURIComponent(itemID)}`)).body;

/** Answers `{revision, index}`. */
export const moveInGallery = async (id, itemID, index) =>
    (await send('POST', `${galleryPath(id)}/items/${encodeURIComponent(itemID)}/move`, { json: { index } })).body;

export const galleryExportURL = (id) => `${galleryPath(id)}/export`;

/** Every item's credit, licence and facts, and the warnings (docs/licences.md, "Credits"). */
export const galleryCredits = (id, signal) => getJSON(`${galleryPath(id)}/credits`, signal);

/** The credits as one document: `text` or `markdown` (what the export's CREDITS.txt holds, or Markdown). */
export const galleryCreditsDocument = (id, format, signal) =>
    textDocument(`${galleryPath(id)}/credits?format=${encodeURIComponent(format)}`, signal);

async function textDocument(url, signal) {
    const response = await reach(url, { signal, headers: { 'x-tessera-client': 'web' } });
    if (!response.ok) throw refusal(response, await response.json().catch(() => null), 'The server');
    try {
        return await response.text();
    } catch (error) {
        throw unreachable(error);
    }
}

export const GALLERY_EVENTS = ['snapshot', 'added', 'removed', 'moved', 'renamed', 'deleted', 'restored', 'gone'];

/**
 * Follows a gallery's changes: `onEvent(type, data)` for each event, `onBroken()` when the browser has
 * given up reconnecting (it retries dropped connections by itself, sending `Last-Event-ID`). Returns a
 * function that stops listening.
 */
export function followGallery(id, { onEvent, onBroken }) {
    const events = new EventSource(`${galleryPath(id)}/events`);
    let open = true;
    for (const type of GALLERY_EVENTS) {
        events.addEventListener(type, (event) => {
            if (!open) return;
            let data;
            try {
                data = JSON.parse(event.data || '{}');
            } catch {
                return;
            }
            if (data.revision == null && event.lastEventId) data.revision = Number(event.lastEventId);
            onEvent(type, data);
        });
    }
    events.addEventListener('error', () => {
        if (open && events.readyState === EventSource.CLOSED) onBroken?.();
    });
    return () => {
        open = false;
        events.close();
    };
}

// MARK: - Accounts (TESSERA_AUTH=accounts)

/** With accounts: who a gallery is shared with, `[{name, role}]`; adding again changes the role. */
export const members = async (id) => (await send('GET', `${galleryPath(id)}/members`)).body.members;
export const addMember = async (id, name, role) =>
    (await send('POST', `${galleryPath(id)}/members`, { json: { name, role } })).body.members;
export const removeMember = (id, name) => send('DELETE', `${galleryPath(id)}/members/${encodeURIComponent(name)}`);

export const me = async () => (await send('GET', '/api/me')).body;
export const signIn = async (name, password) => (await send('POST', '/api/session', { json: { name, password } })).body;
export const signOut = () => send('DELETE', '/api/session');
export const signOutEverywhere = () => send('DELETE', '/api/sessions');

// MARK: - Links: public and drop links to a gallery (docs/accounts.md)

/** The owner's links to gallery `id`, `[Link]`. */
export const links = async (id) => (await send('GET', `${galleryPath(id)}/links`)).body.links;
/** `{kind, password?, expiresAt?, showItems?, perHour?}` → the new Link. */
export const createLink = async (id, request) =>
    (await send('POST', `${galleryPath(id)}/links`, { json: request })).body;
export const revokeLink = (linkID) => send('DELETE', `/api/links/${encodeURIComponent(linkID)}`);

const sharedPath = (slug) => `/api/shared/${encodeURIComponent(slug)}`;

/** What a link shows its visitor (`SharedGallery`). */
export const shared = (slug, signal) => getJSON(sharedPath(slug), signal);
/** Sends a link's password; the server answers with a short-lived cookie that opens the link. */
export const unlockShared = (slug, password) => send('POST', `${sharedPath(slug)}/unlock`, { json: { password } });
export const sharedCredits = (slug, signal) => getJSON(`${sharedPath(slug)}/credits`, signal);
export const sharedCreditsDocument = (slug, format, signal) =>
    textDocument(`${sharedPath(slug)}/credits?format=${encodeURIComponent(format)}`, signal);

/**
 * Adds `{url}` or `{file}` through a drop link; answers `{item}`. A file goes by XMLHttpRequest, the one way
 * a browser reports upload progress: `onProgress(fraction)` as its bytes leave.
 */
export async function dropToShared(slug, { url, file }, onProgress) {
    const path = `${sharedPath(slug)}/items`;
    if (!file) return (await send('POST', path, { json: { url } })).body;
    const form = new FormData();
    form.append('file', file, file.name || 'image');
    return new Promise((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open('POST', path);
        request.setRequestHeader('accept', 'application/json');
        request.setRequestHeader('x-tessera-client', 'web');
        request.responseType = 'json';
        request.upload.addEventListener('progress', (event) => {
            if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
        });
        request.addEventListener('load', () => {
            if (request.status >= 200 && request.status < 300) resolve(request.response);
            else {
                const retry = request.getResponseHeader('retry-after');
                reject(failure(request.status, request.response, 'The server', retry));
            }
        });
        request.addEventListener('error', () => reject(unreachable(new Error('network'))));
        request.addEventListener('timeout', () => reject(unreachable(new Error('timeout'))));
        request.send(form);
    });
}
