// Credit lines and licences in words (shared/attribution.js): the plain text is the server's character for
// character (TesseraCore/Licensing/Attribution.swift; a browser test holds the two together on real items).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    attributionMarkdown, attributionText, attributionXML, isWebURL, licenseFacts, licenseSentence, reuseAllowed,
    storeLink,
} from '../../Sources/TesseraServer/Web/shared/attribution.js';

const ccBy = { id: 'cc-by', name: 'CC BY 2.0', url: 'https://creativecommons.org/licenses/by/2.0/' };
const fox = {
    id: 'flickr:1', source: 'flickr', title: ' Red fox ', creator: { name: 'Ada', url: 'https://flickr.com/ada' },
    license: ccBy, pageURL: 'https://flickr.com/photos/1',
};

test('a credit line: title, creator, licence with its address, source', () => {
    assert.equal(attributionText(fox), '“Red fox” by Ada is licensed under CC BY 2.0. To view a copy of this '
        + 'license, visit https://creativecommons.org/licenses/by/2.0/. Source: Flickr, https://flickr.com/photos/1');
});

test('CC0 and the Public Domain Mark mark; an unknown licence is said to be unknown', () => {
    const cc0 = { ...fox, license: { id: 'cc0', name: 'CC0 1.0' } };
    assert.match(attributionText(cc0), /^“Red fox” by Ada is marked with CC0 1\.0\. Source:/);
    const unknown = { ...fox, creator: null, license: { id: 'unknown', name: 'Whatever' } };
    assert.equal(attributionText(unknown), '“Red fox” is under an unknown licence. Source: Flickr, '
        + 'https://flickr.com/photos/1');
});

test('all rights reserved, with the service’s own wording when it says more', () => {
    const reserved = (name) => attributionText({ ...fox, license: { id: 'all-rights-reserved', name } });
    assert.match(reserved('All Rights Reserved'), /Ada\. All rights reserved\. Source:/);
    assert.match(reserved('© Ada 2020'), /Ada\. All rights reserved \(© Ada 2020\)\. Source:/);
});

test('a person’s own item names no service, and an item without a title is untitled', () => {
    const upload = { source: 'upload', title: '', license: { id: 'unknown' }, pageURL: 'https://example.org/a.jpg' };
    assert.equal(attributionText(upload), '“Untitled” is under an unknown licence. Source: https://example.org/a.jpg');
});

test('Markdown escapes what would start markup and links only to web addresses', () => {
    const item = { ...fox, title: 'A *bold* [fox]', creator: { name: 'Ada_B', url: 'javascript:alert(1)' } };
    assert.equal(attributionMarkdown(item), '“[A \\*bold\\* \\[fox\\]](https://flickr.com/photos/1)” by Ada\\_B is '
        + 'licensed under [CC BY 2.0](https://creativecommons.org/licenses/by/2.0/). Source: '
        + '[Flickr](https://flickr.com/photos/1)');
});

test('XML escapes every value', () => {
    const item = { ...fox, title: 'Fox & <hound>', creator: { name: 'Ada "A"' } };
    assert.equal(attributionXML(item), [
        '<attribution>',
        '  <title>Fox &amp; &lt;hound&gt;</title>',
        '  <creator>Ada &quot;A&quot;</creator>',
        '  <license id="cc-by" url="https://creativecommons.org/licenses/by/2.0/">CC BY 2.0</license>',
        '  <source url="https://flickr.com/photos/1">Flickr</source>',
        '</attribution>',
    ].join('\n'));
});

test('only http and https addresses are web addresses', () => {
    assert.ok(isWebURL('https://example.org/'));
    assert.ok(isWebURL('http://example.org/'));
    assert.ok(!isWebURL('javascript:alert(1)'));
    assert.ok(!isWebURL('data:image/png;base64,AA=='));
    assert.ok(!isWebURL('not a url'));
    assert.ok(!isWebURL(null));
});

test('what a licence lets a person do, in one sentence', () => {
    assert.equal(licenseSentence(ccBy), 'Free to use with credit to the creator, commercial use and changes allowed.');
    const byNcSa = { name: 'CC BY-NC-SA 4.0', url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/' };
    assert.equal(licenseSentence(byNcSa), 'Free to use with credit to the creator, not for commercial purposes, '
        + 'changed versions under this same licence.');
    assert.match(licenseSentence({ name: 'CC0 1.0' }), /^No rights reserved/);
    assert.match(licenseSentence({ name: 'Pixabay Content License' }), /^Free to use, commercial use too/);
    assert.match(licenseSentence({}), /does not say how this may be used/);
    assert.equal(licenseSentence({ name: 'Odd Licence' }), 'Under “Odd Licence”: read its terms before reusing it.');
});

test('reuse is allowed by open licences and the person’s own items, not by reserved rights or a store', () => {
    assert.ok(reuseAllowed(fox));
    assert.ok(reuseAllowed({ source: 'upload', license: { id: 'unknown' } }));
    assert.ok(!reuseAllowed({ source: 'flickr', license: { name: 'All Rights Reserved' } }));
    assert.ok(!reuseAllowed({ source: 'flickr' }));
    const song = { source: 'itunes', kind: 'song', pageURL: 'https://music.apple.com/x',
        license: { name: 'Preview courtesy of iTunes', url: 'https://www.apple.com/legal/' } };
    assert.ok(!reuseAllowed(song));
    assert.deepEqual(storeLink(song), { url: 'https://music.apple.com/x', label: 'View in Apple Music' });
    assert.equal(storeLink(fox), null);
});

test('the server’s licence facts in plain words', () => {
    const facts = { id: 'cc-by-nc', allowsCommercialUse: false, allowsModification: true, requiresCredit: true };
    assert.equal(licenseFacts(facts), 'Not for commercial use. You may change it. Credit required.');
    assert.equal(licenseFacts({ id: 'cc-by' }), '', 'nothing without the facts');
    assert.match(licenseFacts({ id: 'unknown', allowsCommercialUse: false }), /^Licence unknown/);
});
