// What the pages say when something failed, decided by the API's error codes (search/failures.js,
// public/drop.js), and how long the search waits before trying again by itself (search/retryline.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    checkedText, failureText, mayPass, nameList, requestFailureText, requestMayPass,
} from '../../Sources/TesseraServer/Web/search/failures.js';
import { backOff } from '../../Sources/TesseraServer/Web/search/retryline.js';
import { dropFailure } from '../../Sources/TesseraServer/Web/public/drop.js';
import { APIError } from '../../Sources/TesseraServer/Web/shared/api.js';

test('services are named as a sentence names them', () => {
    assert.equal(nameList(['Pixabay']), 'Pixabay');
    assert.equal(nameList(['Pixabay', 'Flickr', 'Openverse']), 'Pixabay, Flickr and Openverse');
});

test('a section’s failure in the page’s own words, per code', () => {
    assert.equal(failureText('unreachable', ['Pixabay', 'Flickr']), 'Couldn’t reach Pixabay and Flickr.');
    assert.equal(failureText('timeout', ['iTunes']), 'iTunes took too long to answer.');
    assert.equal(failureText('service_error', ['Flickr', 'Openverse']),
        'Flickr and Openverse are having trouble right now.');
    assert.equal(failureText('something_new', ['Flickr']), 'Flickr could not answer.');
});

test('a service’s limit is its own, for this minute only when the wait says so', () => {
    assert.equal(failureText('rate_limited', ['Pixabay'], 30), 'Pixabay’s limit for this minute is used up.');
    assert.equal(failureText('rate_limited', ['Pixabay'], 3600), 'Pixabay’s limit for now is used up.');
    assert.equal(failureText('rate_limited', ['Pixabay', 'Flickr']),
        'The limits of Pixabay and Flickr for now are used up.');
});

test('what waiting can mend is tried again by itself; a bad key or a refused search is not', () => {
    for (const code of ['unreachable', 'timeout', 'rate_limited', 'service_error', 'bad_response']) {
        assert.ok(mayPass(code), code);
    }
    for (const code of ['invalid_key', 'source_rejected', 'unsupported_filter']) assert.ok(!mayPass(code), code);
});

test('a failed search request: only the server’s own limit blames the person', () => {
    assert.equal(requestFailureText(new APIError('rate_limited', 'Slow down.')),
        'Too many searches from your address for now.');
    assert.equal(requestFailureText(new APIError('invalid_query', 'The query is too long.')), 'The query is too long.');
});

test('a failed search request may pass when the server is away, busy or in trouble, not when it refuses', () => {
    const passes = (code) => requestMayPass(new APIError(code, ''));
    for (const code of ['network', 'offline', 'rate_limited', 'too_many_streams', 'internal_error',
        'database_unavailable', 'http_429', 'http_502', 'http_503']) assert.ok(passes(code), code);
    for (const code of ['invalid_query', 'invalid_filter', 'unknown_source', 'http_400', 'http_404']) {
        assert.ok(!passes(code), code);
    }
});

test('the filters Tessera checked itself, in a note', () => {
    assert.equal(checkedText(['color']), 'colour checked by Tessera');
    assert.equal(checkedText(['size', 'color'], { capital: true }), 'Size and colour checked by Tessera');
});

test('the automatic tries wait 10, 20, 40, 80 and 160 s, never less than the server asked, then stop', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((failures) => backOff(failures)), [10, 20, 40, 80, 160]);
    assert.equal(backOff(1, 45.2), 46);
    assert.equal(backOff(6), null);
});

test('a drop link’s refusals, for someone who has never seen the app', () => {
    const error = (code, message = 'The server says why.') => new APIError(code, message, 90);
    assert.match(dropFailure(error('rate_limited'), 30),
        /^Too many images for now\. This link takes 30 images an hour\. Try again in 2 minutes \(at .+\)\.$/);
    assert.match(dropFailure(error('too_many_streams'), 30), /^Too many images for now\. Try again in 2 minutes/);
    assert.equal(dropFailure(error('too_large', 'Over 40 MB.')), 'Too large. Over 40 MB.');
    assert.equal(dropFailure(error('not_an_image', 'A PDF.')), 'Not an image this gallery can take. A PDF.');
    assert.equal(dropFailure(error('link_expired')), 'This link has expired.');
    assert.equal(dropFailure(error('read_only_gallery', 'Nobody may add now.')), 'Nobody may add now.');
});
