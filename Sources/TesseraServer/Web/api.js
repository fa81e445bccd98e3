// The JSON API, as the product sheet describes it. Every failure becomes an APIError with a sentence a
// user can act on; an aborted request rejects with the browser's AbortError, which callers ignore.

export class APIError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function getJSON(url, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new APIError(navigator.onLine ? 'network' : 'offline',
      navigator.onLine ? 'Tessera is not answering. Is the server running?' : 'You are offline.');
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new APIError(body?.error?.code ?? `http_${response.status}`,
      body?.error?.message ?? `The server answered ${response.status}.`, response.status);
  }
  return body;
}

export const sources = () => getJSON('/api/sources');

export const search = (q, scope, page, signal) =>
  getJSON(`/api/search?${new URLSearchParams({ q, scope, page: String(page) })}`, signal);

export const item = (source, id, signal) =>
  getJSON(`/api/items/${encodeURIComponent(source)}/${encodeURIComponent(id)}`, signal);

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
 * `/api/search/stream`: calls `onSection` as each source's section arrives, then `onDone`. `onFailure` when
 * the stream breaks before `done`. Returns a function that stops listening.
 */
export function streamSearch(q, scope, { onSection, onDone, onFailure }) {
  const events = new EventSource(`/api/search/stream?${new URLSearchParams({ q, scope, page: '1' })}`);
  let finished = false;
  events.addEventListener('section', (event) => { if (!finished) onSection(JSON.parse(event.data)); });
  events.addEventListener('done', () => {
    finished = true;
    events.close();
    onDone();
  });
  events.addEventListener('error', () => {
    if (finished) return;
    finished = true;
    events.close();
    onFailure();
  });
  return () => {
    finished = true;
    events.close();
  };
}
