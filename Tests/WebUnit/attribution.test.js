// An item's credit in its forms (shared/attribution.js), from the server's `credit`: Markdown read from its
// HTML and XML from the item's fields are the server's strings for the same item (TesseraCore/Licensing/
// Attribution+Formats.swift; CreditsUITests holds the two together on real items).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    creditMarkdown, creditXML, isRestricted, isWebURL, reuseAllowed, storeLink,
} from '../../Sources/TesseraServer/Web/shared/attribution.js';

const deed = 'https://creativecommons.org/licenses/by/2.0/';
const credit = {
    badge: 'CC BY', deed, licenseName: 'CC BY 2.0', label: 'CC BY 2.0: you may reuse it with credit', reusable: true,
    html: '<p class="attribution">“<a href="https://flickr.com/photos/1" rel="noopener noreferrer">Red fox</a>” by '
        + '<a href="https://flickr.com/ada" rel="noopener noreferrer">Ada</a> is licensed under '
        + `<a href="${deed}" rel="noopener noreferrer">CC BY 2.0</a>. Source: `
        + '<a href="https://flickr.com/photos/1" rel="noopener noreferrer">Flickr</a></p>',
    text: `“Red fox” by Ada is licensed under CC BY 2.0. To view a copy of this license, visit ${deed}. Source: `
        + 'Flickr, https://flickr.com/photos/1',
};
const fox = {
    id: 'flickr:1', source: 'flickr', title: ' Red fox ', creator: { name: 'Ada', url: 'https://flickr.com/ada' },
    license: { id: 'cc-by-2.0', name: 'Attribution License' }, pageURL: 'https://flickr.com/photos/1', credit,
};

test('Markdown from the credit’s HTML: each link as [text](href), the rest as text', () => {
    assert.equal(creditMarkdown(credit.html), '“[Red fox](https://flickr.com/photos/1)” by '
        + '[Ada](https://flickr.com/ada) is licensed under [CC BY 2.0](https://creativecommons.org/licenses/by/2.0/). '
        + 'Source: [Flickr](https://flickr.com/photos/1)');
});

test('Markdown escapes what would start markup, read from the HTML’s escaped text', () => {
    const html = '<p class="attribution">“<a href="https://example.org/a_(b)" rel="noopener noreferrer">'
        + 'A *bold* [fox] &amp; &lt;hound&gt;</a>” by Ada_B &#39;Q&#39;. All rights reserved (© Ada): ask the '
        + 'creator before any reuse.</p>';
    assert.equal(creditMarkdown(html), '“[A \\*bold\\* \\[fox\\] \\& \\<hound\\>](https://example.org/a_%28b%29)” '
        + 'by Ada\\_B \'Q\'. All rights reserved (© Ada): ask the creator before any reuse.');
});

test('Markdown makes no link of an address that is not a web address, and keeps no other tag', () => {
    const html = '<p class="attribution"><a href="javascript:alert(1)">x</a> <b>y</b></p>';
    assert.equal(creditMarkdown(html), 'x y');
    assert.equal(creditMarkdown(undefined), '');
});

test('XML: the item’s title and creator, the licence’s id, short name and deed, the source', () => {
    assert.equal(creditXML(fox), [
        '<attribution>',
        '  <title>Red fox</title>',
        '  <creator url="https://flickr.com/ada">Ada</creator>',
        `  <license id="cc-by-2.0" url="${deed}">CC BY 2.0</license>`,
        '  <source url="https://flickr.com/photos/1">Flickr</source>',
        '</attribution>',
    ].join('\n'));
});

test('XML escapes every value; a person’s own item names its page as the source', () => {
    const item = { source: 'web', title: 'Fox & <hound>', creator: { name: 'Ada "A"', url: 'javascript:x' },
        license: { id: 'unknown' }, pageURL: 'https://example.org/a.jpg',
        credit: { licenseName: 'Licence unknown' } };
    assert.equal(creditXML(item), [
        '<attribution>',
        '  <title>Fox &amp; &lt;hound&gt;</title>',
        '  <creator>Ada &quot;A&quot;</creator>',
        '  <license id="unknown">Licence unknown</license>',
        '  <source url="https://example.org/a.jpg">https://example.org/a.jpg</source>',
        '</attribution>',
    ].join('\n'));
    assert.match(creditXML({ title: '' }), /<title>Untitled<\/title>\n {2}<license id="unknown">Licence unknown/);
});

test('only http and https addresses are web addresses', () => {
    assert.ok(isWebURL('https://example.org/'));
    assert.ok(isWebURL('http://example.org/'));
    assert.ok(!isWebURL('javascript:alert(1)'));
    assert.ok(!isWebURL('data:image/png;base64,AA=='));
    assert.ok(!isWebURL('not a url'));
    assert.ok(!isWebURL(null));
});

test('reuse is the server’s word, the person’s own items always; without a credit, the licence id', () => {
    assert.ok(reuseAllowed(fox));
    assert.ok(!reuseAllowed({ ...fox, credit: { ...credit, reusable: false } }));
    assert.ok(reuseAllowed({ source: 'upload', license: { id: 'unknown' }, credit: { reusable: false } }));
    assert.ok(reuseAllowed({ source: 'flickr', license: { id: 'cc-by-nc-2.0' } }));
    assert.ok(!reuseAllowed({ source: 'flickr', license: { id: 'all-rights-reserved' } }));
    assert.ok(!reuseAllowed({ source: 'flickr' }));
});

test('a store’s item links to its store page; a restricted item is one whose credit is not reusable', () => {
    const song = { source: 'itunes', kind: 'song', pageURL: 'https://music.apple.com/x',
        license: { id: 'all-rights-reserved' }, credit: { badge: '©', reusable: false } };
    assert.deepEqual(storeLink(song), { url: 'https://music.apple.com/x', label: 'View in Apple Music' });
    assert.equal(storeLink(fox), null);
    assert.ok(isRestricted(song));
    assert.ok(!isRestricted(fox));
    assert.ok(!isRestricted({ source: 'local', credit: { reusable: false } }), 'the person’s own');
    assert.ok(!isRestricted({ source: 'flickr' }), 'no credit: the server decides');
});
