// What can be searched (shared/catalog.js), and how many results a row of "All" draws at once
// (search/tails.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../Sources/TesseraServer/Web/shared/catalog.js';
import { leadingCount } from '../../Sources/TesseraServer/Web/search/tails.js';

const sources = [
    { id: 'itunes', title: 'iTunes', enabled: true, sections: ['music', 'movies'] },
    { id: 'flickr', title: 'Flickr', enabled: false, reason: 'no key' },
    { id: 'local', title: 'Your library', enabled: true },
];

test('sections come in the product’s fixed order, whatever order the server lists them in', () => {
    const catalog = new Catalog(sources);
    assert.deepEqual(catalog.sections.map((section) => section.id), ['local', 'flickr', 'movies', 'music']);
    assert.deepEqual(catalog.enabledSections.map((section) => section.id), ['local', 'movies', 'music']);
    assert.equal(catalog.section('music').title, 'Music');
    assert.equal(catalog.section('music').source, 'itunes');
    assert.equal(catalog.section('flickr').reason, 'no key');
});

test('scopes, and the names of where items came from', () => {
    const catalog = new Catalog(sources);
    assert.ok(catalog.isScope('all') && catalog.isScope('movies') && catalog.isScope('flickr'));
    assert.ok(!catalog.isScope('itunes'), 'a source of several sections is no scope itself');
    assert.equal(catalog.sourceTitle('itunes'), 'iTunes');
    assert.equal(catalog.sourceTitle('upload'), 'Upload');
    assert.equal(catalog.sourceTitle('elsewhere'), 'elsewhere');
    assert.ok(new Catalog().isScope('all'));
    assert.ok(!new Catalog().isScope('movies'));
});

test('a row of photos draws those that fill its width, the last one cut by its edge', () => {
    const photos = (...ratios) => ratios.map((ratio) => ({ ratio }));
    const ratioOf = (item) => item.ratio;
    // Four columns: a row is 4 × 1.25 + 0.4 = 5.4 heights wide.
    assert.equal(leadingCount(photos(1.5, 1.5, 1.5, 1.5, 1.5), 4, { justified: true, ratioOf }), 4);
    assert.equal(leadingCount(photos(0.5, 0.5, 0.5), 4, { justified: true, ratioOf }), 3, 'no more than there are');
    assert.equal(leadingCount(photos(2.5, 2.5, 2.5, 2.5, 2.5), 4, { justified: true, ratioOf }), 3, 'wide ones: fewer');
});

test('a row of covers draws a column more than fills it', () => {
    assert.equal(leadingCount(new Array(20).fill({}), 4, { justified: false }), 5);
    assert.equal(leadingCount(new Array(3).fill({}), 4, { justified: false }), 3);
});
