// A question before something that cannot be undone, in the app's own dialog (`window.confirm` blocks the
// page and cannot be styled). Cancel has the focus, so a stray Enter keeps things as they are.
import { $ } from './dom.js';

/**
 * Opens a question `dialog` (wired by `wireQuestion`) with `cancel` focused; resolves true when it closes by
 * its yes button, false for anything else (its cancel button, Escape or the backdrop).
 */
export function ask(dialog, cancel) {
    dialog.returnValue = '';
    return new Promise((resolve) => {
        dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
        dialog.showModal();
        cancel.focus();
    });
}

/** A question dialog's buttons: `yes` closes it as yes, `no` and a click on the backdrop as no. */
export function wireQuestion(dialog, yes, no) {
    yes.addEventListener('click', () => dialog.close('yes'));
    no.addEventListener('click', () => dialog.close('no'));
    // A click on the backdrop (the dialog element itself, outside its content) cancels.
    dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close('no'); });
}

/** Resolves true when the user confirms, false when they cancel (Cancel, Escape or the backdrop). */
export function confirmAction({ title, message, confirm }) {
    $('#confirm-title').textContent = title;
    $('#confirm-message').textContent = message;
    $('#confirm-yes').textContent = confirm;
    return ask($('#confirm-dialog'), $('#confirm-no'));
}

export function setupConfirm() {
    wireQuestion($('#confirm-dialog'), $('#confirm-yes'), $('#confirm-no'));
}
