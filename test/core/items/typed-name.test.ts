import { beforeAll, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';

const names = createItemNames();
beforeAll(() => names.warm({ reverse: true }), 60_000);

const skuOf = (text: string) => {
  const r = names.resolveTyped(text);
  return r.ok ? r.sku : r.reason;
};

describe('resolveTyped: a name typed in any order, case and spelling', () => {
  it.each([
    ['Burning Flames Team Captain', '378;5;u13'],
    ['team captain burning flames', '378;5;u13'],
    ['Team Captain Burning Flames', '378;5;u13'],
    ['strange unusual burning flames team captain', '378;5;u13;strange'],
    ['Mann Co. Supply Crate Key', '5021;6'],
    ['mann co supply crate key', '5021;6'],
    ['MANN CO. SUPPLY CRATE KEY', '5021;6'],
    ['non craft mann co supply crate key', '5021;6;uncraftable'],
    ['ubersaw', '37;6'],
    ['brutal bouffant', '1014;6'],
    ['pro ks rocket launcher', '205;6;kt-3'],
    ['rocket launcher strange prof ks', '205;11;kt-3'],
    ['aussie rocket launcher', '205;11;australium'],
    ['festivized rocket launcher', '205;6;festive'],
    ['Festive Rocket Launcher', '658;6'],
    ['red rock roscoe pistol ft', '15013;15;w3;pk0'],
    ['haunted metal scrap', '267;6'],
  ])('%j is %s', (text, sku) => {
    expect(skuOf(text)).toBe(sku);
  });

  it('keeps what a name typed as backpack.tf writes it resolves to, and its refusals', () => {
    expect(skuOf('Team Captain')).toBe('378;6');
    expect(skuOf('Mann Co. Supply Crate')).toBe('ambiguous');
    expect(skuOf('')).toBe('empty');
    expect(skuOf('Mann Co Suply Crate Key')).toBe('no_such_item');
    expect(skuOf('team captain flames burning')).not.toBe('378;5;u13');
  });
});

describe('suggest: names a text may be the start of', () => {
  const offered = (text: string) => names.suggest(text, 8).map((m) => `${m.name} ${m.sku ?? `(${m.candidates.length})`}`);

  it('reads typed parts around the starts of a name\'s words, in any order', () => {
    expect(offered('team captain burning flames')[0]).toBe('Burning Flames Team Captain 378;5;u13');
    expect(offered('pro ks rocket launch')[0]).toBe('Professional Killstreak Rocket Launcher 205;6;kt-3');
    expect(offered('unu team capt')).toContain('Unusual Team Captain 378;5');
  });

  it('completes a part being typed after the name: an effect', () => {
    expect(offered('team captain burn')).toContain('Burning Flames Team Captain 378;5;u13');
  });

  it('offers a name several items bear with its candidates, and the one each of them narrows to', () => {
    expect(offered('Mann Co. Supply Crate')[0]).toMatch(/^Mann Co\. Supply Crate \(\d+\)$/);
    expect(offered('Mann Co. Supply Crate Ke')).toEqual(['Mann Co. Supply Crate Key 5021;6']);
  });

  it('offers a name that holds a part\'s word itself as it is', () => {
    expect(offered('haunted metal scrap')).toContain('Haunted Metal Scrap 267;6');
    expect(offered('haunted metal scrap')).not.toContain('Haunted Haunted Metal Scrap 267;13');
  });
});

describe('nearMiss: did you mean', () => {
  it.each([
    ['Mann Co Suply Crate Key', 'Mann Co. Supply Crate Key', '5021;6'],
    ['mann co supply crate kye', 'Mann Co. Supply Crate Key', '5021;6'],
    ['Tema Captain', 'Team Captain', '378;6'],
    ['burning flames team captian', 'Burning Flames Team Captain', '378;5;u13'],
  ])('%j is near %j', (text, name, sku) => {
    expect(names.nearMiss(text)).toEqual({ name, sku });
  });

  it('finds nothing near a name too far from any, nor a word too short to tell', () => {
    expect(names.nearMiss('qwertyuiop asdfgh')).toBeNull();
    expect(names.nearMiss('xq')).toBeNull();
  });

  it('is quick: the names are folded and grouped by length once', () => {
    const started = performance.now();
    for (let i = 0; i < 20; i++) names.nearMiss(`Mann Co Suply Crate Ky${i % 2 === 0 ? '' : 'e'}`);
    const ms = (performance.now() - started) / 20;
    console.log(`did you mean: ${ms.toFixed(2)} ms a name`);
  });
});
