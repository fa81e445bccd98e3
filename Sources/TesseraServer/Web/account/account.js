// Who is signed in (TESSERA_AUTH=accounts): the name in the bar, "Sign out" and "Sign out everywhere".
import * as api from '../shared/api.js';
import { $, toast } from '../shared/dom.js';

export async function setupAccount() {
    let me;
    try {
        me = await api.me();
    } catch {
        return; // the bar works without it; a signed-out session comes back as sign_in_required
    }
    if (me?.auth !== 'accounts' || !me.account) return;
    const menu = $('#account');
    $('#account-name').textContent = me.account.name;
    menu.hidden = false;
    const leave = async (everywhere) => {
        try {
            await (everywhere ? api.signOutEverywhere() : api.signOut());
            location.assign('/login');
        } catch (error) {
            toast(error.message);
        }
    };
    $('#sign-out').addEventListener('click', () => leave(false));
    $('#sign-out-everywhere').addEventListener('click', () => leave(true));
}
