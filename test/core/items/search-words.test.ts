import { describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { ABBREVIATIONS, foldSearchText, itemWords, searchWords } from '../../../src-main/core/items/search-words.ts';

describe('foldSearchText: the one normaliser of every search', () => {
  it.each([
    ['Übersaw', 'ubersaw'],
    ['Brütal Bouffant', 'brutal bouffant'],
    ['MANN CO. SUPPLY CRATE KEY', 'mann co supply crate key'],
    ["Collector's Fat Man’s Field Cap", 'collectors fat mans field cap'],
    ['Red Rock Roscoe Pistol (Field-Tested)', 'red rock roscoe pistol field tested'],
    ['  Non-Craftable   Strange\tUnusual  ', 'non craftable strange unusual'],
    ['Claidheamh Mòr', 'claidheamh mor'],
    ['Straße', 'strasse'],
    ['', ''],
  ])('%j is %j', (typed, folded) => {
    expect(foldSearchText(typed)).toBe(folded);
  });
});

describe('searchWords: what a trader types, as words', () => {
  it.each([
    ['Pro KS Rocket Launcher', ['professional', 'killstreak', 'rocket', 'launcher']],
    ['prof ks rocket launcher', ['professional', 'killstreak', 'rocket', 'launcher']],
    ['Spec KS Minigun', ['specialized', 'killstreak', 'minigun']],
    ['specialised killstreak', ['specialized', 'killstreak']],
    ['KS Scattergun', ['killstreak', 'scattergun']],
    ['Aussie Rocket Launcher', ['australium', 'rocket', 'launcher']],
    ['Non-Craft Team Captain', ['noncraftable', 'team', 'captain']],
    ['Non-Craftable Team Captain', ['noncraftable', 'team', 'captain']],
    ['uncraftable key', ['noncraftable', 'key']],
    ['NC key', ['noncraftable', 'key']],
    ['unu team captain', ['unusual', 'team', 'captain']],
    ['red rock roscoe pistol ft', ['red', 'rock', 'roscoe', 'pistol', 'field', 'tested']],
    ['Festive Minigun', ['festive', 'minigun']],
    ['The Team Captain', ['team', 'captain']],
    ['the', ['the']],
  ])('%j is %j', (typed, words) => {
    expect(searchWords(typed)).toEqual(words);
  });

  it('spells out every short form it lists, and a form of several words before its parts', () => {
    for (const [form, words] of ABBREVIATIONS) expect(searchWords(form), form).toEqual(words.split(' '));
    expect(searchWords('pro ks')).not.toContain('ks');
  });
});

describe('itemWords: the words an item is found by', () => {
  const names = createItemNames();
  const words = (sku: string) => {
    const d = names.describe(sku);
    if (!d.known) throw new Error(`${sku} is not known`);
    return itemWords(d);
  };

  it('holds the quality a name does not print: an Unusual is found by "unusual", a plain item by "unique"', () => {
    expect(words('378;5;u13')).toEqual(expect.arrayContaining(['burning', 'flames', 'team', 'captain', 'unusual']));
    expect(words('378;6')).toEqual(expect.arrayContaining(['team', 'captain', 'unique']));
    expect(words('378;5;u13;strange')).toEqual(expect.arrayContaining(['strange', 'unusual', 'burning']));
  });

  it('tells craftable from non-craftable apart by whole words', () => {
    expect(words('5021;6')).toContain('craftable');
    expect(words('5021;6;uncraftable')).toContain('noncraftable');
    expect(words('5021;6;uncraftable')).not.toContain('craftable');
  });

  it('holds a hyphenated word also as one word, each word once', () => {
    const skin = words('15013;15;w3;pk0');
    expect(skin).toEqual(expect.arrayContaining(['field', 'tested', 'fieldtested']));
    expect(new Set(skin).size).toBe(skin.length);
  });

  it('folds the typed and the stored alike: every typed word starts a word of the item', () => {
    const found = (typed: string, sku: string) => searchWords(typed).every((w) => words(sku).some((iw) => iw.startsWith(w)));
    expect(found('team captain burning flames', '378;5;u13')).toBe(true);
    expect(found('Unusual Burn', '378;5;u13')).toBe(true);
    expect(found('pro ks rocket', '205;11;kt-3')).toBe(true);
    expect(found('ubersaw', '37;6')).toBe(true);
    expect(found('aussie', '205;11;australium')).toBe(true);
    expect(found('craftable key', '5021;6;uncraftable')).toBe(false);
    expect(found('non craft key', '5021;6;uncraftable')).toBe(true);
  });
});
