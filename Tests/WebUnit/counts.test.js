// The numbers a search page says (search/counts.js): a row's header, the summaries, the end of a list; and the
// one sentence for the sections a filter left out (search/leftout.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    endText, gridSummary, placeOf, roughly, rowCountText, sectionsSummary,
} from '../../Sources/TesseraServer/Web/search/counts.js';
import { leftOutSentence, storeScopeSentence } from '../../Sources/TesseraServer/Web/search/leftout.js';

test('a service’s count in words: exact below a thousand, else about, three figures', () => {
    assert.equal(roughly(7), '7');
    assert.equal(roughly(999), '999');
    assert.equal(roughly(1000), 'about 1,000');
    assert.equal(roughly(8737), 'about 8,740');
    assert.equal(roughly(11396), 'about 11,400');
    assert.equal(roughly(1234567), 'about 1,230,000');
});

test('where a section’s results are', () => {
    assert.equal(placeOf('pixabay', 'Pixabay'), 'on Pixabay');
    assert.equal(placeOf('movies', 'iTunes'), 'on iTunes');
    assert.equal(placeOf('local', 'Your library'), 'in your library');
});

test('a row’s header never counts more than the row holds, but the service’s own count in words', () => {
    const place = 'on Pixabay';
    assert.equal(rowCountText({ shown: 20, total: 11396, hasMore: true, place }), 'about 11,400 on Pixabay');
    assert.equal(rowCountText({ shown: 20, total: 140, hasMore: true, place }), '140 on Pixabay');
    assert.equal(rowCountText({ shown: 2, total: 5, hasMore: false, place }), '2 shown',
        'Openverse said 5, Tessera’s check kept 2: the header says 2');
    assert.equal(rowCountText({ shown: 17, total: null, hasMore: true, place }), '17 shown');
    assert.equal(rowCountText({ shown: 3, total: 3, hasMore: false, place }), '3 shown');
    assert.equal(rowCountText({ shown: 0, total: 4, hasMore: false, place }), '', 'every picture folded away');
    assert.equal(rowCountText({ shown: 0, total: 400, hasMore: true, place }), '400 on Pixabay');
});

test('the summaries say what they count', () => {
    assert.equal(sectionsSummary(55, 8), '55 loaded from 8 sections');
    assert.equal(sectionsSummary(1, 1), '1 loaded from 1 section');
    const place = 'on Pixabay';
    assert.equal(gridSummary({ loaded: 12, total: null, limit: 500, place }), '12 loaded');
    assert.equal(gridSummary({ loaded: 20, total: 45, limit: 500, place }), '20 of 45 loaded');
    assert.equal(gridSummary({ loaded: 45, total: 45, limit: 500, place }), 'All 45 loaded');
    assert.equal(gridSummary({ loaded: 60, total: 8737, limit: 500, place }), '60 loaded · about 8,740 on Pixabay',
        'more than Pixabay lets anyone reach: not “60 of 8,737”');
    assert.equal(gridSummary({ loaded: 20, total: 1204, limit: null, place: 'in your library' }), '20 of 1,204 loaded');
    assert.equal(gridSummary({ loaded: 1, total: 1, limit: 500, place }), '1 loaded');
});

test('the end of a list says how many and why it ended', () => {
    const pixabay = { service: 'Pixabay', limit: 500 };
    assert.equal(endText({ loaded: 23, total: 23, read: 40, ...pixabay }), 'All 23 loaded.');
    assert.equal(endText({ loaded: 1, total: 1, read: 20, ...pixabay }), 'The one result is loaded.');
    assert.equal(endText({ loaded: 23, total: null, read: 40, ...pixabay }), 'All 23 loaded.');
    assert.equal(endText({ loaded: 500, total: 8737, read: 500, ...pixabay }),
        '500 loaded: Pixabay lets apps reach at most 500 results of one search.');
    assert.equal(endText({ loaded: 60, total: 8737, read: 60, ...pixabay }),
        '60 loaded: Pixabay counts about 8,740 but lets apps reach only these.');
    assert.equal(endText({ loaded: 20, total: null, read: 40, checked: ['license'], ...pixabay }),
        '20 loaded: Pixabay can’t filter by licence, so Tessera checked its results itself and may have missed some.');
    assert.equal(endText({ loaded: 41, total: null, read: 500, checked: ['orientation', 'size'], service: 'Flickr',
        limit: 4000 }), '41 loaded: Flickr can’t filter by orientation and size, so Tessera checked its results '
        + 'itself and may have missed some.');
    assert.equal(endText({ loaded: 43, total: 45, read: 60, ...pixabay }), 'All 43 loaded.',
        'a few repeated on an earlier page are not a service’s limit');
    assert.equal(endText({ loaded: 0, total: 0, read: 20, ...pixabay }), '');
});

test('one sentence for every section a filter left out', () => {
    const stores = ['Movies', 'Music', 'Apps', 'Books'];
    const colour = (title) => ({ title, filters: ['color'] });
    assert.equal(leftOutSentence({ unsupported: [colour('Flickr'), ...stores.map(colour)], stores }),
        'Flickr and the store sections can’t filter by colour.');
    assert.equal(leftOutSentence({ unsupported: ['Flickr', 'Openverse', 'Wikimedia Commons'].map(colour), stores }),
        'Flickr, Openverse and Wikimedia Commons can’t filter by colour.');
    assert.equal(leftOutSentence({ unsupported: [{ title: 'Flickr', filters: ['color', 'type'] }, colour('Openverse')],
        stores }), 'Flickr can’t filter by colour or type; Openverse can’t filter by colour.');
    assert.equal(leftOutSentence({ unsupported: [colour('Movies'), colour('Music')], stores }),
        'Movies and Music can’t filter by colour.', 'some store sections are named');
    assert.equal(leftOutSentence({ unsupported: [], stores }), '');
    assert.equal(leftOutSentence({ unsupported: [{ title: 'Flickr', filters: [] }], stores }),
        'Flickr can’t apply these filters.');
});

test('the store sections a licence filter leaves out, said under the switch', () => {
    const stores = ['Movies', 'Music', 'Apps', 'Books'];
    assert.equal(leftOutSentence({ withoutReuse: stores, stores, mayUseOnly: true }),
        'Only what you may use: the store sections (Movies, Music, Apps, Books) are left out, '
        + 'as nothing there may be reused.');
    assert.equal(leftOutSentence({ withoutReuse: stores, stores, mayUseOnly: false }),
        'The store sections (Movies, Music, Apps, Books) are left out, as nothing there may be reused.');
    assert.equal(leftOutSentence({ withoutReuse: ['Movies'], stores: ['Movies'], mayUseOnly: true }),
        'Only what you may use: Movies is left out, as nothing there may be reused.');
    const colour = (title) => ({ title, filters: ['color'] });
    assert.equal(leftOutSentence({ withoutReuse: stores, stores, mayUseOnly: true,
        unsupported: [colour('Flickr'), ...stores.map(colour)] }),
    'Only what you may use: the store sections (Movies, Music, Apps, Books) are left out, as nothing there '
        + 'may be reused; Flickr can’t filter by colour.', 'the stores are named once, for the licence');
    assert.equal(storeScopeSentence('Movies', true),
        'Only what you may use: nothing in Movies may be reused, so it shows nothing here.');
    assert.equal(storeScopeSentence('Music', false), 'Nothing in Music may be reused, so it shows nothing here.');
});
