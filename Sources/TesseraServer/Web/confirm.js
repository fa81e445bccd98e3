// A question before something that cannot be undone, in the app's own dialog (`window.confirm` blocks the
// page and cannot be styled). Cancel has the focus, so a stray Enter keeps things as they are.
import { $ } from './dom.js';

/** Resolves true when the user confirms, false when they cancel (Cancel, Escape or the backdrop). */
export function confirmAction({ title, message, confirm }) {
    const dialog = $('#confirm-dialog');
    $('#confirm-title').textContent = title;
    $('#confirm-message').textContent = message;
    const yes = $('#confirm-yes');
    yes.textContent = confirm;
    dialog.returnValue = '';
    return new Promise((resolve) => {
        dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
        dialog.showModal();
        $('#confirm-no').focus();
    });
}

export function setupConfirm() {
    const dialog = $('#confirm-dialog');
    $('#confirm-yes').addEventListener('click', () => dialog.close('yes'));
    $('#confirm-no').addEventListener('click', () => dialog.close('no'));
    // A click on the backdrop (the dialog element itself, outside its content) cancels.
    dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close('no'); });
}
