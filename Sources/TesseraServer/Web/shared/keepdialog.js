// Adding a restricted item to a gallery (docs/licences.md, "Restricted items": all rights reserved, a store's
// artwork, an unknown licence) asks once whether to keep it for reference, since it will not leave the
// gallery: an export leaves its file out and a link shows a card instead of the picture.
import { $ } from './dom.js';
import { confirmAction } from './confirm.js';
import { isRestricted } from './attribution.js';

/**
 * Resolves true when `item` may be added: it is not restricted, or the person chose to keep it; false for
 * Cancel, Escape or the backdrop.
 */
export async function keepForReference(item) {
    if (!isRestricted(item)) return true;
    const yes = $('#confirm-yes');
    // Keeping is no danger: the question's button is an ordinary one while it asks.
    const danger = yes.classList.contains('danger');
    yes.classList.remove('danger');
    try {
        return await confirmAction({
            title: `${item.credit.licenseName} — keep it for reference?`,
            message: `${item.credit.label}. The gallery keeps “${item.title}” for you to look at, but it does not ` +
                'leave the gallery: exports leave its file out, and links show a card with its title, creator ' +
                'and source instead of the picture.',
            confirm: 'Keep for reference',
        });
    } finally {
        yes.classList.toggle('danger', danger);
    }
}
