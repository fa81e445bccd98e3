// The rules the pages check before asking the server, as the server keeps them: a query's length
// (search/query.js) and a gallery's name (shared/galleryname.js), both counted in code points.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUERY, lengthMessage, validQuery } from '../../Sources/TesseraServer/Web/search/query.js';
import { MAX_NAME, nameProblem } from '../../Sources/TesseraServer/Web/shared/galleryname.js';

test('a query is 1 to 100 characters after trimming', () => {
    assert.ok(validQuery('  fox '));
    assert.ok(!validQuery('   '));
    assert.ok(validQuery('x'.repeat(MAX_QUERY)));
    assert.ok(!validQuery('x'.repeat(MAX_QUERY + 1)));
});

test('a query’s characters are code points: 100 emoji fit, though they are 200 UTF-16 units', () => {
    assert.ok(validQuery('🦊'.repeat(100)));
    assert.equal(lengthMessage('🦊'.repeat(101)), 'Searches are at most 100 characters; this one has 101.');
    assert.equal(lengthMessage(' '), 'Type something to search for.');
});

test('a gallery’s name is 1 to 100 characters after trimming, in code points', () => {
    assert.equal(nameProblem('  Trips '), null);
    assert.equal(nameProblem('  '), 'Give the gallery a name.');
    assert.equal(nameProblem('🦊'.repeat(MAX_NAME)), null);
    assert.equal(nameProblem('a'.repeat(101)), 'Names are at most 100 characters; this one has 101.');
});
