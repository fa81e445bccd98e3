// The search filters (shared/filters.js): reading them from an address, writing them to one, and turning
// values on and off as the filter bar does.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
    FILTERS, chosen, chosenCount, excludesAllRightsReserved, filterEntries, filterKey, filterWords, listedValues,
    mayUseOnly, panelValues, readFilters, toggled, valueLabel, withMayUseOnly,
} from '../../Sources/TesseraServer/Web/shared/filters.js';

test('the filters are the API’s, in its order', () => {
    assert.deepEqual(FILTERS.map((filter) => filter.name), ['license', 'orientation', 'size', 'color', 'type']);
    assert.deepEqual(listedValues(FILTERS[0]), ['reusable', 'commercial', 'modification', 'cc0', 'pdm', 'cc-by',
        'cc-by-sa', 'pixabay']);
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

test('“Only what I may use” is the licence value `reusable`, first in the list, combined with the others', () => {
    assert.deepEqual(withMayUseOnly({ license: 'commercial,cc-by', color: 'red' }, true),
        { license: 'reusable,commercial,cc-by', color: 'red' });
    assert.deepEqual(withMayUseOnly({ license: 'reusable,cc0' }, false), { license: 'cc0' });
    assert.deepEqual(withMayUseOnly({ license: 'reusable' }, false), {});
    assert.deepEqual(withMayUseOnly({ license: 'reusable' }, true), { license: 'reusable' }, 'on stays on');
    assert.deepEqual(withMayUseOnly({}, false), {});
    assert.equal(mayUseOnly({ license: 'cc0,reusable' }), true);
    assert.equal(mayUseOnly({ license: 'commercial' }), false);
});

test('the switch is not a chip’s value: not in the licence chip, not in the sheet’s count', () => {
    assert.deepEqual(panelValues({ license: 'reusable,cc0' }, 'license'), ['cc0']);
    assert.deepEqual(panelValues({ color: 'red' }, 'color'), ['red']);
    assert.equal(chosenCount({ license: 'reusable' }), 0);
    assert.equal(chosenCount({ license: 'reusable,commercial', size: 'large' }), 2);
});

test('a licence filter keeps every store item out unless it lets all rights reserved through', () => {
    assert.equal(excludesAllRightsReserved({}), false);
    assert.equal(excludesAllRightsReserved({ color: 'red' }), false);
    assert.equal(excludesAllRightsReserved({ license: 'reusable' }), true);
    assert.equal(excludesAllRightsReserved({ license: 'commercial' }), true);
    assert.equal(excludesAllRightsReserved({ license: 'cc0,pdm' }), true);
    assert.equal(excludesAllRightsReserved({ license: 'all-rights-reserved' }), false);
    assert.equal(excludesAllRightsReserved({ license: 'cc0,all-rights-reserved' }), false);
    assert.equal(excludesAllRightsReserved({ license: 'modification,all-rights-reserved' }), true,
        'every fact must hold, and all rights reserved allows none');
});
