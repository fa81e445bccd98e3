// Small DOM helpers. Text from the sources only ever goes in through text nodes and attributes set one by
// one, never through HTML parsing: a title like `<img onerror=...>` stays a title.

/** Makes an element: `h('a', {href: '/x', class: 'y'}, 'text', child)`. */
export function h(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    setAttributes(element, attributes);
    for (const child of children.flat()) {
        if (child === undefined || child === null || child === false) continue;
        element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
}

/** Sets attributes one by one: `undefined`, `null` and `false` leave one out, `true` sets it empty. */
export function setAttributes(element, attributes) {
    for (const [name, value] of Object.entries(attributes)) {
        if (value === undefined || value === null || value === false) continue;
        element.setAttribute(name, value === true ? '' : String(value));
    }
}

/**
 * Runs `callback(deadline)` when the browser is idle, within `timeout` ms regardless; `cancelIdle` takes the
 * handle back. Safari has no `requestIdleCallback`: there a short timer stands in, with no idle time to spend
 * (`deadline.timeRemaining()` is 0).
 */
export function idleCallback(callback, timeout) {
    if (typeof requestIdleCallback === 'function') return requestIdleCallback(callback, { timeout });
    return setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 50);
}

export function cancelIdle(handle) {
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
    else clearTimeout(handle);
}

/** Resolves once the next frame has been drawn: for work that should not hold up what is being shown. */
export const afterNextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const numberFormat = new Intl.NumberFormat();
export const formatNumber = (n) => numberFormat.format(n);
/** "1 item", "1,204 items": a gallery's size, in the list, the picker and the panel alike. */
export const itemCount = (n) => `${formatNumber(n)} ${n === 1 ? 'item' : 'items'}`;

let toastTimer = 0;
let toastAction = null;
/**
 * A short message at the bottom of the screen, read out by screen readers. With `action` (a label such as
 * "Undo") and `onAction`, it carries a button, stays longer, and stays while the pointer or focus is on it.
 */
export function toast(message, { action, onAction } = {}) {
    const element = $('#toast');
    const parts = [h('span', { class: 'toast-text' }, message)];
    toastAction = null;
    if (action && onAction) {
        const button = h('button', { type: 'button', class: 'toast-action' }, action);
        toastAction = () => {
            toastAction = null;
            element.hidden = true;
            onAction();
        };
        button.addEventListener('click', toastAction);
        parts.push(button);
    }
    element.replaceChildren(...parts);
    element.hidden = false;
    scheduleToastEnd(toastAction ? 6000 : 2600);
}

function scheduleToastEnd(delay) {
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
        const element = $('#toast');
        if (element.matches(':hover, :focus-within')) scheduleToastEnd(1500);
        else {
            element.hidden = true;
            toastAction = null;
        }
    }, delay);
}

/** Runs the visible toast's action (Undo) if there is one: for Ctrl+Z / ⌘Z. */
export function runToastAction() {
    if (!toastAction || $('#toast').hidden) return false;
    toastAction();
    return true;
}

/** Copies text to the clipboard; falls back to a hidden text area where the Clipboard API is refused. */
export async function copyText(text) {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    } catch {
        const area = h('textarea', { class: 'visually-hidden', readonly: true });
        area.value = text;
        document.body.append(area);
        area.select();
        const copied = document.execCommand('copy');
        area.remove();
        return copied;
    }
}

/**
 * Copies rich text (`html`, which pastes as formatted text with its links) with `text` beside it for plain
 * fields, through a ClipboardItem where the browser has one; else `text` alone.
 */
export async function copyRich(html, text) {
    if (window.ClipboardItem && navigator.clipboard?.write) {
        try {
            await navigator.clipboard.write([new ClipboardItem({
                'text/html': new Blob([html], { type: 'text/html' }),
                'text/plain': new Blob([text], { type: 'text/plain' }),
            })]);
            return true;
        } catch {
            // Refused (no permission, an older browser's types): the plain text still helps.
        }
    }
    return copyText(text);
}

/** Whether a key event comes from somewhere the user types text. */
export function isTyping(event) {
    const target = event.target;
    return target instanceof HTMLElement &&
        (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
/** When to try again after `seconds` (a 429's Retry-After): "in 2 minutes (at 17:45)"; "later" if unknown. */
export function retryText(seconds, now = new Date()) {
    if (!(seconds > 0)) return 'later';
    if (seconds < 60) return `in ${Math.ceil(seconds)} ${Math.ceil(seconds) === 1 ? 'second' : 'seconds'}`;
    const minutes = Math.ceil(seconds / 60);
    const at = clock.format(new Date(now.getTime() + seconds * 1000));
    const wait = minutes >= 120 ? `${Math.round(minutes / 60)} hours`
        : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
    return `in ${wait} (at ${at})`;
}
