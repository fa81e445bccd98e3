// Small DOM helpers. Text from the sources only ever goes in through text nodes and attributes set one by
// one, never through HTML parsing: a title like `<img onerror=...>` stays a title.

/** Makes an element: `h('a', {href: '/x', class: 'y'}, 'text', child)`. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const numberFormat = new Intl.NumberFormat();
export const formatNumber = (n) => numberFormat.format(n);

let toastTimer = 0;
/** A short message at the bottom of the screen, read out by screen readers. */
export function toast(message) {
  const element = $('#toast');
  element.textContent = message;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { element.hidden = true; }, 2600);
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

/** Whether a key event comes from somewhere the user types text. */
export function isTyping(event) {
  const target = event.target;
  return target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}
