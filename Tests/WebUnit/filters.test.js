// The search filters (shared/filters.js): reading them from an address, writing them to one, and turning
// values on and off as the filter bar does.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    FILTERS, chosen, chosenCount, filterEntries, filterKey, filterWords, listedValues, readFilters, toggled, valueLabel,
} from '../../Sources/TesseraServer/Web/shared/filters.js';

test('the filters are the API’s, in its order', () => {
    assert.deepEqual(FILTERS.map((filter) => filter.name), ['license', 'orientation', 'size', 'color', 'type']);
    assert.deepEqual(listedValues(FILTERS[0]), ['commercial', 'modification', 'cc0', 'pdm', 'cc-by', 'cc-by-sa',
        'pixabay']);
});

test('an address’s filters: the known names with a value, nothing else', () => {
    const params = new URLSearchParams('q=fox&color=red&size=&license=cc0,cc-by&shape=round');
    assert.deepEqual(readFilters(params), { color: 'red', license: 'cc0,cc-by' });
});

test('query pairs come in the API’s order, whatever the object’s', () => {
    assert.deepEqual(filterEntries({ type: 'photo', license: 'cc0', color: '' }),
        [['license', 'cc0'], ['type', 'photo']]);
    assert.deepEqual(filterEntries(), []);
});

test('two sets of filters are the same search when their keys are equal', () => {
    assert.equal(filterKey({ color: 'red', size: 'large' }), filterKey({ size: 'large', color: 'red' }));
    assert.notEqual(filterKey({ color: 'red' }), filterKey({ color: 'blue' }));
    assert.equal(filterKey({}), '');
});

test('a licence list holds several values; the others one', () => {
    assert.deepEqual(chosen({ license: 'cc0,,pdm' }, 'license'), ['cc0', 'pdm']);
    assert.deepEqual(chosen({ color: 'red' }, 'color'), ['red']);
    assert.deepEqual(chosen({}, 'color'), []);
    assert.equal(chosenCount({ license: 'cc0,pdm', color: 'red' }), 3);
});

test('turning a licence on keeps the bar’s order; an unlisted value goes last', () => {
    assert.deepEqual(toggled({ license: 'cc-by' }, 'license', 'commercial'), { license: 'commercial,cc-by' });
    assert.deepEqual(toggled({ license: 'zzz' }, 'license', 'cc0'), { license: 'cc0,zzz' });
    assert.deepEqual(toggled({ license: 'cc0,pdm' }, 'license', 'cc0'), { license: 'pdm' });
});

test('a single-valued filter is replaced, and turning its value off removes it', () => {
    assert.deepEqual(toggled({ color: 'red', size: 'large' }, 'color', 'blue'), { color: 'blue', size: 'large' });
    assert.deepEqual(toggled({ color: 'red' }, 'color', 'red'), {});
});

test('values and names in words', () => {
    assert.equal(valueLabel('color', 'gray'), 'Grey');
    assert.equal(valueLabel('license', 'cc-by-nc'), 'cc-by-nc', 'a value the bar does not list, as spelled');
    assert.equal(filterWords(['color']), 'colour');
    assert.equal(filterWords(['license', 'size', 'color']), 'licence, size and colour');
});
