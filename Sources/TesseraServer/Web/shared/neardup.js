// Adding a picture to a gallery that already holds it, or one that looks the same: the server refuses with
// 409 `near_duplicate` unless asked to add it anyway (docs/galleries.md), and this asks the person; so does
// adding a restricted item (keepdialog.js). Every way of adding (Save from the detail view, a drop on a
// gallery, a link or file added in a gallery) goes through it.
import * as api from './api.js';
import { $ } from './dom.js';
import { ask, wireQuestion } from './confirm.js';
import { keepForReference } from './keepdialog.js';

/** Thrown when the person chose not to add the picture: nothing changed, and there is nothing to report. */
export class Declined extends Error {
    constructor() {
        super('Not added.');
        this.name = 'Declined';
    }
}

/** The toast when a picture was not added to the gallery `name`: why, unless the person chose so. */
export const notAdded = (name, error) =>
    (error instanceof Declined ? `Not added to ${name}` : `Not added to ${name}: ${error.message}`);

/**
 * `api.addToGallery`, asking first whether to keep a restricted item for reference (keepdialog.js; not for
 * `kept`, an Undo putting back what was there) and when the gallery already has the same picture: "Add
 * anyway" sends the same request again with `allowNearDuplicate`. Cancel (or Escape) throws `Declined`.
 */
export async function addAsking(galleryID, source, signal) {
    if (source.item && !source.kept && !(await keepForReference(source.item))) throw new Declined();
    try {
        return await api.addToGallery(galleryID, source, signal);
    } catch (error) {
        if (error.code !== 'near_duplicate') throw error;
        if (!(await askNearDuplicate(error, source))) throw new Declined();
        return api.addToGallery(galleryID, { ...source, allowNearDuplicate: true }, signal);
    }
}

/** The picture being added, when there is one to show: a result's thumbnail or the file's own bytes. */
function newPicture(source) {
    if (source.item?.thumbnail?.url) return { url: source.item.thumbnail.url, alt: source.item.title, revoke: false };
    if (source.file?.type?.startsWith('image/')) {
        return { url: URL.createObjectURL(source.file), alt: source.file.name, revoke: true };
    }
    return null;
}

/** Resolves true for "Add anyway", false for Cancel, Escape or the backdrop. */
export async function askNearDuplicate(error, source) {
    $('#neardup-message').textContent = error.message;
    const existing = error.duplicateOf;
    const old = $('#neardup-existing');
    old.closest('figure').hidden = !existing?.thumbnail;
    if (existing?.thumbnail) {
        old.src = existing.thumbnail;
        old.alt = existing.title ?? '';
    }
    const picture = newPicture(source);
    const added = $('#neardup-new');
    added.closest('figure').hidden = !picture;
    if (picture) {
        added.src = picture.url;
        added.alt = picture.alt ?? '';
    }
    try {
        return await ask($('#neardup-dialog'), $('#neardup-cancel'));
    } finally {
        if (picture?.revoke) URL.revokeObjectURL(picture.url);
    }
}

export function setupNearDuplicate() {
    wireQuestion($('#neardup-dialog'), $('#neardup-add'), $('#neardup-cancel'));
}
