// Server-sent events read from a `fetch` response, for the search stream.
//
// Why not `EventSource`: Chromium opens an EventSource's connection from a task of its own, which runs only
// after the browser has drawn the frame the search started (the skeleton rows), about 20 ms after Return on
// the bench machine; `fetch` sends the request at once (docs/duplicates.md, "Return to 20 thumbnails painted").
// The stream is never resumed, so EventSource's reconnecting is not needed: a broken stream is the caller's
// `onFailure`.
// TextDecoderStream is in every browser the app supports, but not in this ESLint's list of browser globals.
/* global TextDecoderStream */

/**
 * GETs `url` and calls `onEvent(type, data)` for each event (`type` "message" when the event names none),
 * in order. Resolves when the stream ends; rejects on a network error, an answer other than 2xx, or `signal`.
 */
export async function readEvents(url, signal, onEvent) {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, cache: 'no-store', signal });
    if (!response.ok || !response.body) throw new Error(`The server answered ${response.status}.`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    let type = '';
    let data = null;
    for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        // Only whole lines are read; the rest waits for the next chunk.
        const lines = (pending + value).split(/\r\n|\r|\n/);
        pending = lines.pop();
        for (const line of lines) {
            if (line === '') {
                // A blank line ends an event; one without data is not dispatched.
                if (data !== null) onEvent(type || 'message', data);
                type = '';
                data = null;
                continue;
            }
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            let text = colon < 0 ? '' : line.slice(colon + 1);
            if (text.startsWith(' ')) text = text.slice(1);
            if (field === 'event') type = text;
            else if (field === 'data') data = data === null ? text : `${data}\n${text}`;
        }
    }
}
