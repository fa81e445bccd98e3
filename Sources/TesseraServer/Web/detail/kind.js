// The detail view's parts that depend on the kind of item: a preview that plays (songs, films), a store's
// facts (an app's price, rating and screenshots; a book's author and description), and the actions its
// licence allows (Download and "Copy attribution" only where reuse is allowed, else a link to the store).
import { $, $$, h, formatNumber } from '../shared/dom.js';
import { reuseAllowed, storeLink } from '../shared/attribution.js';

// Only this server's signed addresses are played or shown (a gallery keeps items as a browser sent them).
const SIGNED_MEDIA = /^\/media\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/;
const SIGNED_IMAGE = /^\/img\/[a-z]+\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/;

/** Fills the kind-specific parts for `item`. */
export function renderKind(item) {
    renderPlayer(item);
    renderFacts(item);
    renderActions(item);
}

export function clearKind() {
    stopPlayer();
    $('#detail-play').hidden = true;
    $('#detail-facts').hidden = true;
    $('#detail-store').hidden = true;
    $('#detail-creator-label').textContent = 'By';
}

/** Stops and removes the player, so nothing keeps playing once the view closes or moves on. */
export function stopPlayer() {
    for (const player of $$('#detail-play audio, #detail-play video')) {
        player.pause();
        player.removeAttribute('src');
        player.load();
        player.remove();
    }
    $('#detail-play-error').hidden = true;
}

function renderPlayer(item) {
    stopPlayer();
    const media = item.mediaPreview;
    const section = $('#detail-play');
    section.hidden = !(media && SIGNED_MEDIA.test(media.url));
    if (section.hidden) return;
    const video = media.kind === 'video';
    const poster = video ? (item.preview ?? item.thumbnail)?.url : null;
    const player = h(video ? 'video' : 'audio', {
        id: 'detail-player', controls: true, preload: 'metadata', src: media.url,
        'aria-label': `${video ? 'Video' : 'Audio'} preview of ${item.title}`,
        poster: poster && SIGNED_IMAGE.test(poster) ? poster : null, playsinline: video,
    });
    player.addEventListener('error', () => {
        if (!player.isConnected) return;
        const error = $('#detail-play-error');
        error.textContent = 'This preview cannot be played: the service sent something other than audio or video, ' +
            'or it is not available now.';
        error.hidden = false;
    });
    section.prepend(player);
}

function renderFacts(item) {
    const listing = item.listing ?? {};
    const app = item.kind === 'app';
    const book = item.kind === 'book';
    $('#detail-creator-label').textContent = book ? 'Author:' : app ? 'Developer:' : 'By';
    show('#detail-price', app || book ? listing.price : null, (price) => `Price: ${price}`);
    show('#detail-rating', app || book ? listing.rating : null, (rating) => ratingText(rating, listing.ratingCount));
    // Plain text, already without markup on the server; set as text, so nothing in it can become HTML.
    show('#detail-description', book || app ? listing.description : null, (text) => text);
    const screenshots = app ? (listing.screenshots ?? []).filter((shot) => SIGNED_IMAGE.test(shot.url)) : [];
    const list = $('#detail-screenshots');
    list.hidden = screenshots.length === 0;
    list.replaceChildren(...screenshots.map((shot, index) => h('li', {},
        h('img', { src: shot.url, alt: `Screenshot ${index + 1} of ${item.title}`, loading: 'lazy',
            decoding: 'async', width: shot.width, height: shot.height }))));
    $('#detail-facts').hidden = $$('#detail-facts > *').every((part) => part.hidden);
}

/** `★ 4.5 out of 5 (1,234 ratings)`. */
export function ratingText(rating, count) {
    const stars = `★ ${(Math.round(rating * 10) / 10).toFixed(1)} out of 5`;
    if (!Number.isInteger(count)) return stars;
    return `${stars} (${formatNumber(count)} ${count === 1 ? 'rating' : 'ratings'})`;
}

function show(selector, value, text) {
    const element = $(selector);
    const present = value !== undefined && value !== null && value !== '';
    element.hidden = !present;
    element.textContent = present ? text(value) : '';
}

/**
 * Download and the credit actions where the licence allows reuse (the credit's only with the server's
 * `credit`, which an answer cached before it lacks); the store's page where it sells the item.
 */
function renderActions(item) {
    const allowed = reuseAllowed(item);
    const actions = ['download', 'copy-text', 'copy-html', 'copy-markdown', 'copy-xml'];
    for (const button of $$(actions.map((action) => `#detail [data-action="${action}"]`).join(', '))) {
        button.hidden = !allowed || (button.dataset.action !== 'download' && !item.credit);
    }
    const store = storeLink(item);
    $('#detail-store').hidden = !store;
    if (store) {
        // The store link says where better than "View on iTunes" would.
        $('#detail-page').hidden = true;
        const link = $('#detail-store-link');
        link.href = store.url;
        link.textContent = store.label;
    }
}
