// A failure's line with "Try again". The page never asks again at once by itself: a failed page asked again
// on the next frame asked a failing service about sixty times in a second (docs/web.md, "Failures"). It asks
// again when a person presses Try again, or by itself after a wait it shows counting down.
import { h } from '../shared/dom.js';

/** The first automatic try waits this long (seconds); each failure after it doubles the wait. */
const FIRST_WAIT = 10;
/** After this many failures in a row only a person tries again: a forgotten tab stops asking. */
const AUTOMATIC_TRIES = 5;

/**
 * Seconds to wait before trying again by itself after `failures` failures in a row (10, 20, 40, 80, 160),
 * at least what the server said (`retryAfter`); `null` once the automatic tries are spent.
 */
export function backOff(failures, retryAfter = null) {
    if (failures > AUTOMATIC_TRIES) return null;
    return Math.max(FIRST_WAIT * 2 ** Math.max(0, failures - 1), Math.ceil(retryAfter ?? 0));
}

/**
 * A calm line (`.banner.notice`): `message`, then with `wait` (seconds) "Trying again in 9 s", and a "Try
 * again" button. `retry` runs once, from the button or when the count reaches zero, after the line is taken
 * away. The count stands still while nobody can see it (a hidden tab, another screen), and stops for good
 * once the line has left the page (a new search).
 */
export function retryLine(message, { retry, wait = null, attributes = {} }) {
    const button = h('button', { type: 'button' }, 'Try again');
    const countdown = h('span', { class: 'countdown', 'aria-live': 'off' });
    const line = h('div', { class: 'banner notice', role: 'status', ...attributes },
        h('span', { class: 'banner-text' }, message), h('span', { class: 'banner-actions' }, countdown, button));
    let timer = 0;
    const run = () => {
        clearInterval(timer);
        line.remove();
        retry();
    };
    button.addEventListener('click', run);
    if (wait != null) {
        let left = wait;
        const show = () => { countdown.textContent = `Trying again in ${left} s`; };
        show();
        timer = setInterval(() => {
            if (!line.isConnected) {
                clearInterval(timer);
                return;
            }
            // Nobody sees it: a hidden tab, or another screen of the app (a gallery) over the results.
            if (document.hidden || line.offsetParent === null) return;
            left -= 1;
            if (left > 0) show();
            else run();
        }, 1000);
    }
    return line;
}
