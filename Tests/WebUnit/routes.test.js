// The app's addresses both ways (shared/routes.js): what each address names, and the addresses the app writes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { galleryURL, itemURL, nativeID, routeOf, searchURL } from '../../Sources/TesseraServer/Web/shared/routes.js';

const at = (path) => routeOf(`http://tessera.test${path}`);

test('the start page, and any address the app does not know, is home', () => {
    assert.deepEqual(at('/'), { view: 'home' });
    assert.deepEqual(at('/nowhere'), { view: 'home' });
    assert.deepEqual(at('/item/pixabay'), { view: 'home' }, 'an item needs its source and its id');
});

test('a search names its query, scope, filters and tag', () => {
    assert.deepEqual(at('/search?q=red%20fox&scope=flickr&license=cc0,cc-by&color=red&tag=snow'), {
        view: 'search', q: 'red fox', scope: 'flickr', filters: { license: 'cc0,cc-by', color: 'red' }, tag: 'snow',
    });
});

test('a search without a scope is of everything, and one without a query is empty', () => {
    assert.deepEqual(at('/search'), { view: 'search', q: '', scope: 'all', filters: {}, tag: '' });
    assert.equal(at('/search?q=fox&scope=').scope, 'all');
});

test('an item is its source and the source’s own id, decoded', () => {
    assert.deepEqual(at('/item/wikimedia/File%3AA%20b.jpg'), { view: 'item', source: 'wikimedia', id: 'File:A b.jpg' });
    assert.deepEqual(at('/item/flickr/a/b'), { view: 'item', source: 'flickr', id: 'a/b' }, 'the rest of the path');
});

test('the galleries, one gallery, and one of its items', () => {
    assert.deepEqual(at('/galleries'), { view: 'galleries' });
    assert.deepEqual(at('/galleries/'), { view: 'galleries' });
    assert.deepEqual(at('/galleries/g_1'), { view: 'gallery', id: 'g_1', item: null });
    assert.deepEqual(at('/galleries/g_1?item=i_2'), { view: 'gallery', id: 'g_1', item: 'i_2' });
    assert.deepEqual(at('/galleries/g_1/extra'), { view: 'home' });
});

test('a search address keeps the API’s order and leaves commas in a licence list as they are', () => {
    const url = searchURL({ q: 'fox', scope: 'all', filters: { color: 'red', license: 'cc0,pdm' }, tag: 'snow' });
    assert.equal(url, '/search?q=fox&scope=all&license=cc0,pdm&color=red&tag=snow');
    assert.equal(searchURL({ q: 'a&b', scope: 'music', filters: {}, tag: '' }), '/search?q=a%26b&scope=music');
});

test('a search address reads back as the search it was written from', () => {
    const search = { q: 'blue & green', scope: 'pixabay', filters: { size: 'large', type: 'photo' }, tag: 'sky' };
    assert.deepEqual(at(searchURL(search)), { view: 'search', ...search });
});

test('an item’s address carries the source’s own id, encoded, and reads back', () => {
    const item = { id: 'wikimedia:File:A b/c.jpg', source: 'wikimedia' };
    assert.equal(nativeID(item), 'File:A b/c.jpg');
    assert.equal(itemURL(item), '/item/wikimedia/File%3AA%20b%2Fc.jpg');
    assert.deepEqual(at(itemURL(item)), { view: 'item', source: 'wikimedia', id: 'File:A b/c.jpg' });
});

test('a gallery’s address, and one of its items', () => {
    assert.equal(galleryURL('g 1'), '/galleries/g%201');
    assert.equal(galleryURL('g_1', 'i&2'), '/galleries/g_1?item=i%262');
    assert.deepEqual(at(galleryURL('g_1', 'i&2')), { view: 'gallery', id: 'g_1', item: 'i&2' });
});
