// A drop link's "Add images": files from the picker, dropped on the page or pasted, and image addresses,
// each with a line of its own saying how far its upload is and how it ended, in plain words. Uploads go one
// after another: the link has a limit per hour, and a phone's connection does better with one at a time.
import * as api from '../shared/api.js';
import { $, h, formatNumber, isTyping, retryText } from '../shared/dom.js';
import { accepts, readDrop } from '../shared/dragdrop.js';

/** Why an image was not added, for someone who has never seen the app before. */
export function dropFailure(error, perHour) {
    switch (error.code) {
        case 'rate_limited': {
            const limit = perHour ? ` This link takes ${formatNumber(perHour)} images an hour.` : '';
            return `Too many images for now.${limit} Try again ${retryText(error.retryAfter)}.`;
        }
        case 'too_many_attempts':
        case 'too_many_streams':
            return `Too many images for now. Try again ${retryText(error.retryAfter)}.`;
        case 'too_large':
        case 'too_many_pixels':
            return `Too large. ${error.message}`;
        case 'not_an_image':
        case 'unreadable_image':
            return `Not an image this gallery can take. ${error.message}`;
        case 'link_not_found':
            return 'This link no longer exists: its owner may have revoked it.';
        case 'link_expired':
            return 'This link has expired.';
        default:
            return error.message;
    }
}

export class DropArea {
    /**
     * `onAdded(galleryItem)` for each image the gallery took; `showsItems`: whether the link shows the
     * gallery's copies (an address's thumbnail is shown only then: the server refuses it otherwise).
     */
    constructor(slug, { perHour, showsItems, onAdded }) {
        this.slug = slug;
        this.perHour = perHour;
        this.showsItems = showsItems;
        this.onAdded = onAdded;
        this.element = $('#drop-area');
        this.zone = $('#drop-zone');
        this.list = $('#drop-list');
        this.queue = Promise.resolve();
        $('#drop-pick').addEventListener('click', () => $('#drop-file').click());
        $('#drop-file').addEventListener('change', (event) => {
            const files = [...event.target.files];
            event.target.value = '';
            this.add(readFiles(files));
        });
        $('#drop-url-form').addEventListener('submit', (event) => {
            event.preventDefault();
            const field = $('#drop-url');
            const url = field.value.trim();
            if (!/^https?:\/\/\S+$/i.test(url)) {
                this.note('Paste the address of an image, starting with http:// or https://.');
                field.focus();
                return;
            }
            field.value = '';
            this.add({ adds: [{ url }], refused: [] });
        });
        // The whole page takes a drop, not only the zone: a phone's screen is small, a desktop's target large.
        document.addEventListener('dragover', (event) => this.over(event));
        document.addEventListener('drop', (event) => this.drop(event));
        document.addEventListener('paste', (event) => {
            if (!this.active || isTyping(event) || !event.clipboardData) return;
            const found = readDrop(event.clipboardData);
            if (!found.adds.length && !found.refused.length) return;
            event.preventDefault();
            this.add(found);
        });
    }

    show() {
        this.element.hidden = false;
        $('#drop-limit').textContent = `Images only, at most ${formatNumber(this.perHour)} an hour through this ` +
            'link. The gallery’s owner sees what you add.';
    }

    /** Drops count while the area is on screen and nothing is over it (the detail view, a sheet). */
    get active() {
        return !this.element.hidden && !document.body.classList.contains('detail-open')
            && !document.querySelector('dialog[open]');
    }

    over(event) {
        if (!this.active || !accepts(event.dataTransfer)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        this.zone.classList.add('drop-active');
        // No event says a drag left the window: the highlight goes when the dragovers stop.
        clearTimeout(this.leaveTimer);
        this.leaveTimer = setTimeout(() => this.zone.classList.remove('drop-active'), 250);
    }

    drop(event) {
        if (!this.active || !accepts(event.dataTransfer)) return;
        event.preventDefault();
        clearTimeout(this.leaveTimer);
        this.zone.classList.remove('drop-active');
        this.add(readDrop(event.dataTransfer));
    }

    /** Queues what a drop, the picker or the address field brought; says at once what is not an image. */
    add({ adds, refused }) {
        for (const name of refused) this.row(name).fail('Not an image, so it was not sent.');
        // A search result dragged from Tessera itself is not something a visitor's link takes.
        const sendable = adds.filter((source) => source.file || source.url);
        if (!sendable.length && !refused.length) this.note('Nothing to add: drop image files or links to images.');
        for (const source of sendable) {
            const row = this.row(source.file ? source.file.name || 'Pasted image' : source.url, source.file,
                this.showsItems);
            this.queue = this.queue.then(() => this.send(source, row));
        }
    }

    async send(source, row) {
        row.progress(source.file ? 0 : null);
        try {
            const answer = await api.dropToShared(this.slug, source, (fraction) => row.progress(fraction));
            row.done(answer?.item);
            if (answer?.item) this.onAdded?.(answer.item);
        } catch (error) {
            row.fail(dropFailure(error, this.perHour));
        }
    }

    note(text) {
        const message = $('#drop-message');
        message.textContent = text;
        message.hidden = false;
        clearTimeout(this.noteTimer);
        this.noteTimer = setTimeout(() => { message.hidden = true; }, 6000);
    }

    /** A line for one image, newest first, with what to show for it and how to say how it went. */
    row(name, file = null, showsCopies = false) {
        const status = h('span', { class: 'drop-status' }, 'Waiting…');
        const bar = h('progress', { max: '1', 'aria-label': `Upload of ${name}` });
        bar.hidden = true;
        // A file is shown from the visitor's own copy; nothing of the gallery is loaded for it.
        const preview = file && (!file.type || file.type.startsWith('image/')) ? URL.createObjectURL(file) : null;
        const picture = preview
            ? h('img', { src: preview, alt: '', width: 56, height: 56, decoding: 'async' })
            : h('span', { class: 'drop-thumb-none', 'aria-hidden': 'true' });
        const element = h('li', { class: 'drop-row', 'data-state': 'waiting' },
            h('span', { class: 'drop-thumb' }, picture),
            h('span', { class: 'drop-text' }, h('span', { class: 'drop-name' }, name), status, bar));
        this.list.prepend(element);
        const settle = (state, text) => {
            element.dataset.state = state;
            status.textContent = text;
            bar.hidden = true;
        };
        return {
            progress(fraction) {
                element.dataset.state = 'sending';
                status.textContent = fraction == null ? 'Sending…' : `Sending… ${Math.round(fraction * 100)}%`;
                bar.hidden = false;
                if (fraction == null) bar.removeAttribute('value');
                else bar.value = fraction;
            },
            done(galleryItem) {
                const thumbnail = galleryItem?.image?.thumbnail?.url;
                if (!preview && thumbnail && showsCopies) {
                    const image = h('img', { src: thumbnail, alt: '', width: 56, height: 56 });
                    image.addEventListener('error', () => image.remove(), { once: true });
                    picture.replaceWith(image);
                }
                settle('added', 'Added to the gallery');
            },
            fail(text) {
                settle('failed', text);
            },
        };
    }
}

function readFiles(files) {
    const images = files.filter((file) => !file.type || file.type.startsWith('image/'));
    const refused = files.filter((file) => !images.includes(file)).map((file) => file.name);
    return { adds: images.map((file) => ({ file })), refused };
}
