// A public link's items: tiles in the owner's order, each opening in the app's detail view at
// `/s/{slug}?item={id}` (so Back closes it and the address can be shared), with previous and next through
// the grid. Only the gallery's stored copies are shown: never the source's own images or previews. A
// restricted item (its licence allows no sharing of copies) is a card with no picture, linking to its source.
import { $, h } from '../shared/dom.js';
import { isWebURL } from '../shared/attribution.js';
import { tile, watchImages } from '../shared/tiles.js';
import { enableGridKeys } from '../shared/keyboard.js';
import { Detail } from '../detail/detail.js';
import { isPlainClick } from '../shared/router.js';

/** A shared gallery item as tiles and the detail view show it: the stored copy's images and nothing else. */
export function sharedItem(galleryItem) {
    const { item, image } = galleryItem;
    return {
        ...item,
        shareID: galleryItem.id,
        restricted: Boolean(galleryItem.restricted),
        thumbnail: image?.thumbnail ?? null,
        preview: image?.preview ?? null,
        full: image?.original ?? null,
        mediaPreview: null,
        listing: item.listing ? { ...item.listing, screenshots: [] } : item.listing,
    };
}

export class SharedGrid {
    /** `title()` is the page's title when no item is open. */
    constructor(catalog, title) {
        this.catalog = catalog;
        this.title = title;
        this.grid = $('#public-grid');
        this.items = new Map();
        watchImages(this.grid);
        enableGridKeys(this.grid);
        this.detail = new Detail(catalog, {
            onClose: () => this.close(),
            neighbour: (item, step) => this.neighbour(item, step),
            onStep: (item) => this.open(item.shareID, { replace: true }),
        });
        this.grid.addEventListener('click', (event) => {
            const link = event.target.closest('a[data-shared-item]');
            if (!link || !isPlainClick(event)) return;
            event.preventDefault();
            this.open(link.dataset.sharedItem);
        });
        addEventListener('popstate', () => this.follow());
    }

    itemURL(id) {
        return `${location.pathname}?${new URLSearchParams({ item: id })}`;
    }

    /** Shows exactly `galleryItems`, in order. */
    show(galleryItems) {
        this.items = new Map(galleryItems.map((galleryItem) => [galleryItem.id, sharedItem(galleryItem)]));
        this.grid.replaceChildren(...galleryItems.map((galleryItem) => this.tileFor(galleryItem.id)));
    }

    /** Adds one item at the end (what this visitor just dropped). */
    add(galleryItem) {
        if (this.items.has(galleryItem.id)) return;
        this.items.set(galleryItem.id, sharedItem(galleryItem));
        this.grid.append(this.tileFor(galleryItem.id));
    }

    get count() {
        return this.items.size;
    }

    tileFor(id) {
        const item = this.items.get(id);
        if (item.restricted) return restrictedCard(item, this.catalog.sourceTitle(item.source));
        return tile(item, this.catalog.sourceTitle(item.source),
            { href: this.itemURL(id), link: { 'data-shared-item': id }, id });
    }

    linkFor(id) {
        return this.grid.querySelector(`a[data-shared-item="${CSS.escape(id)}"]`);
    }

    open(id, { replace = false } = {}) {
        // Stepping keeps the entry's state: an item opened from the grid still closes with Back.
        if (replace) history.replaceState(history.state, '', this.itemURL(id));
        else history.pushState({ overlay: true }, '', this.itemURL(id));
        this.follow();
    }

    /** Shows what the address says: one item over the grid, or the grid alone (a restricted item has no view). */
    follow() {
        const id = new URLSearchParams(location.search).get('item');
        const item = id ? this.items.get(id) : null;
        if (item?.restricted) {
            history.replaceState(null, '', location.pathname);
            this.follow();
            return;
        }
        if (item) {
            const link = this.linkFor(id);
            if (link && this.detail.isOpen) {
                this.detail.returnFocus = link;
                link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
            }
            this.detail.show(item);
            return;
        }
        const focus = this.detail.close();
        focus?.focus?.({ preventScroll: true });
        document.title = this.title();
    }

    close() {
        if (history.state?.overlay) {
            history.back();
            return;
        }
        history.replaceState(null, '', location.pathname);
        this.follow();
    }

    neighbour(item, step) {
        const links = [...this.grid.querySelectorAll('a[data-shared-item]')];
        const index = links.findIndex((link) => link.dataset.sharedItem === item.shareID);
        const next = index < 0 ? null : links[index + step];
        return next ? this.items.get(next.dataset.sharedItem) ?? null : null;
    }
}

/**
 * A restricted item as the link shows it: its title, creator and what its licence allows, and its page at
 * the source; the server sends no picture for it (docs/accounts.md), so the card asks for none.
 */
function restrictedCard(item, sourceTitle) {
    const label = item.credit?.label ?? 'Ask the creator before any reuse';
    const page = isWebURL(item.pageURL)
        ? h('a', { class: 'card-source', href: item.pageURL, target: '_blank', rel: 'noopener noreferrer',
            'aria-label': `View at source: “${item.title}” on ${sourceTitle}` }, 'View at source')
        : null;
    return h('li', { class: 'tile restricted-card', role: 'listitem', 'data-id': item.shareID },
        h('div', { class: 'card-body' },
            item.credit?.badge ? h('span', { class: 'badge', 'data-reusable': 'false', 'aria-hidden': 'true' },
                item.credit.badge) : null,
            h('p', { class: 'card-title' }, item.title || 'Untitled'),
            item.creator?.name ? h('p', { class: 'card-creator' }, `by ${item.creator.name}`) : null,
            h('p', { class: 'card-label' }, label),
            page));
}
