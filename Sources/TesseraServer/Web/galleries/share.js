// The gallery page's "Share" dialog (accounts only, the owner only): who the gallery is shared with, each
// as an editor or a viewer; add someone by their user name, change a role, or stop sharing. Below, the
// gallery's public and drop links (links.js).
import * as api from '../shared/api.js';
import { $, h, toast } from '../shared/dom.js';
import { LinksSection } from './links.js';

const roles = [['viewer', 'Can view'], ['editor', 'Can edit']];

export class ShareDialog {
    constructor() {
        this.dialog = $('#share-dialog');
        this.list = $('#share-members');
        this.form = $('#share-form');
        this.name = $('#share-name');
        this.role = $('#share-role');
        this.message = $('#share-message');
        this.form.addEventListener('submit', (event) => {
            event.preventDefault();
            this.add(this.name.value.trim(), this.role.value);
        });
        this.list.addEventListener('change', (event) => {
            const row = event.target.closest('[data-name]');
            if (row) this.add(row.dataset.name, event.target.value);
        });
        this.list.addEventListener('click', (event) => {
            const button = event.target.closest('button[data-action="unshare"]');
            if (button) this.remove(button.closest('[data-name]').dataset.name);
        });
        this.links = new LinksSection();
        $('#share-done').addEventListener('click', () => this.dialog.close());
        this.dialog.addEventListener('click', (event) => { if (event.target === this.dialog) this.dialog.close(); });
    }

    /** Opens the dialog for gallery `gallery` and shows its members. */
    async open(gallery) {
        this.gallery = gallery;
        $('#share-title').textContent = `Share “${gallery.name}”`;
        this.hideMessage();
        this.list.replaceChildren();
        this.dialog.showModal();
        this.name.focus();
        this.links.open(gallery);
        try {
            this.show(await api.members(gallery.id));
        } catch (error) {
            this.showMessage(error.message);
        }
    }

    show(members) {
        this.list.replaceChildren(...members.map((member) => this.row(member)));
        if (!members.length) {
            this.list.append(h('li', { class: 'muted share-none' }, 'Not shared with anyone yet.'));
        }
    }

    row(member) {
        const select = h('select', { 'aria-label': `Role of ${member.name}` },
            ...roles.map(([value, label]) => h('option', { value, selected: value === member.role }, label)));
        return h('li', { class: 'share-member', 'data-name': member.name },
            h('span', { class: 'share-member-name' }, member.name),
            select,
            h('button', {
                type: 'button', 'data-action': 'unshare', 'aria-label': `Stop sharing with ${member.name}`,
            }, 'Remove'));
    }

    async add(name, role) {
        if (!name) {
            this.showMessage('Type the user name of the person to share with.');
            this.name.focus();
            return;
        }
        try {
            this.show(await api.addMember(this.gallery.id, name, role));
            this.hideMessage();
            if (name === this.name.value.trim()) this.name.value = '';
        } catch (error) {
            this.showMessage(error.message);
        }
    }

    async remove(name) {
        try {
            await api.removeMember(this.gallery.id, name);
            this.show(await api.members(this.gallery.id));
            toast(`Stopped sharing with ${name}`);
        } catch (error) {
            this.showMessage(error.message);
        }
    }

    showMessage(text) {
        this.message.textContent = text;
        this.message.hidden = false;
    }

    hideMessage() {
        this.message.hidden = true;
    }
}
