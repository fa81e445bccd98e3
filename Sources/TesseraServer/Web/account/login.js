// The sign-in page: POST /api/session, then back to the page that sent the browser here.
import * as api from '../shared/api.js';
import { $ } from '../shared/dom.js';

const form = $('#login-form');
const message = $('#login-message');
const submit = $('#login-submit');

/** Where to go after signing in: `next` when it is a path on this server, else home. */
function destination() {
    const next = new URLSearchParams(location.search).get('next') ?? '/';
    return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function show(text) {
    message.textContent = text;
    message.hidden = !text;
}

form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('#login-name').value.trim();
    const password = $('#login-password').value;
    if (!name || !password) {
        show('Enter your name and password.');
        return;
    }
    show('');
    submit.disabled = true;
    try {
        await api.signIn(name, password);
        location.replace(destination());
    } catch (error) {
        show(error.message);
        $('#login-password').select();
    } finally {
        submit.disabled = false;
    }
});

$('#login-name').focus();
