import type { z } from 'zod';

/**
 * Hostile inputs for the bridge, generated from the contract's own zod
 * schemas: for every channel, every field (inside every option of a union,
 * every element of a list) is replaced in turn by each hostile value while
 * the rest of the input stays plausible. A channel added to the contract is
 * covered without touching this file.
 *
 * Only what Electron's structured clone can carry is used: typed arrays,
 * buffers, maps, dates, bigints, cycles and shared references cross the
 * bridge; functions and symbols make the renderer's own `invoke` throw.
 */

/** One generated input and where its hostile part sits, for the failure report. */
export interface FuzzCase {
  readonly where: string;
  readonly value: unknown;
}

type Walkable = z.ZodType;

interface Def {
  type: string;
  shape?: Record<string, Walkable>;
  element?: Walkable;
  innerType?: Walkable;
  options?: readonly Walkable[];
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
  in?: Walkable;
  checks?: readonly { _zod: { def: { check: string; maximum?: number } } }[];
}

const defOf = (schema: Walkable): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const MIB = 1024 * 1024;

/** A 10 MB line of text with control characters in it: what a log must never take in whole. */
const HUGE_TEXT = `${'\u001b[31m\r\n\u0000\u202e'.repeat(8)}${'x'.repeat(10 * MIB)}`;

function deepNesting(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function cyclic(): unknown {
  const a: Record<string, unknown> = { name: 'loop' };
  a.self = a;
  return a;
}

/** An object holding `__proto__` as its own key, as JSON.parse would make it. */
const protoKey = (): unknown => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');

/** A tree whose branches share one child: small to send, huge to walk naively. */
function sharedFanout(): unknown {
  let level: unknown = 'leaf';
  for (let i = 0; i < 6; i++) level = Array.from({ length: 40 }, () => level);
  return level;
}

/**
 * Values that replace one field at a time. Big ones are built once and shared:
 * the router must never change what it was given.
 */
export const HOSTILE: readonly FuzzCase[] = [
  { where: 'undefined', value: undefined },
  { where: 'null', value: null },
  { where: 'true', value: true },
  { where: 'false', value: false },
  { where: '0', value: 0 },
  { where: '-0', value: -0 },
  { where: '-1', value: -1 },
  { where: '1.5', value: 1.5 },
  { where: 'NaN', value: Number.NaN },
  { where: 'Infinity', value: Number.POSITIVE_INFINITY },
  { where: '-Infinity', value: Number.NEGATIVE_INFINITY },
  { where: '2^53+2', value: 2 ** 53 + 2 },
  { where: '1e308', value: 1e308 },
  { where: 'bigint', value: 10n ** 30n },
  { where: 'empty text', value: '' },
  { where: 'spaces', value: '   ' },
  { where: '"0"', value: '0' },
  { where: '"-1"', value: '-1' },
  { where: '"1e400"', value: '1e400' },
  { where: '"__proto__"', value: '__proto__' },
  { where: '"constructor"', value: 'constructor' },
  { where: 'NUL', value: 'a\u0000b' },
  { where: 'bidi override', value: '\u202eevil\u202c;\u2066x\u2069' },
  { where: 'formula', value: '=HYPERLINK("https://evil.example","x")' },
  { where: 'markup', value: '<img src=x onerror=alert(1)>' },
  { where: 'path', value: '../../../../etc/passwd' },
  { where: 'prefixed key', value: 'not:a-key' },
  { where: 'terminal escapes', value: '\u001b]0;pwned\u0007\r\n\t' },
  { where: 'lone surrogate', value: '\ud800x' },
  { where: '10 MB text with control characters', value: HUGE_TEXT },
  { where: 'empty object', value: {} },
  { where: 'empty list', value: [] },
  { where: 'null-prototype object', value: Object.assign(Object.create(null) as object, { a: 1 }) },
  { where: 'own __proto__ key', value: protoKey() },
  { where: 'deep nesting', value: deepNesting(100_000) },
  { where: 'cycle', value: cyclic() },
  { where: 'shared fan-out', value: sharedFanout() },
  { where: '1 MiB Uint8Array', value: new Uint8Array(MIB) },
  { where: '1 MiB Float64Array', value: new Float64Array(MIB / 8) },
  { where: '1 MiB ArrayBuffer', value: new ArrayBuffer(MIB) },
  { where: 'DataView', value: new DataView(new ArrayBuffer(64)) },
  { where: 'Date', value: new Date(Number.NaN) },
  { where: 'Map', value: new Map([['draftId', 'x']]) },
  { where: 'Set', value: new Set(['x']) },
  { where: 'RegExp', value: /x/g },
  { where: 'Error', value: new Error('x') },
  { where: 'list of 1,048,576 zeros', value: new Array<number>(MIB).fill(0) },
];

/**
 * A value that fits the schema, for the fields not under attack. Strings try
 * a few shapes the contract uses (account IDs, SKUs, trade URLs) and keep the
 * first the schema accepts; `known` supplies real values by field name (an
 * existing draft's ID), so hostile fields beside it reach the services.
 */
export function plausible(schema: Walkable, known: Readonly<Record<string, unknown>>, key = ''): unknown {
  if (key in known) return known[key];
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(def.shape ?? {})) {
        const t = defOf(child).type;
        if (t !== 'optional' && t !== 'default') out[k] = plausible(child, known, k);
      }
      return out;
    }
    case 'string':
      return firstAccepted(schema, ['76561198000000001', '5021;6', 'https://steamcommunity.com/tradeoffer/new/?partner=1&token=abc', 'a plain name']);
    case 'number':
      return firstAccepted(schema, [100, 1, 5, 60, 0]);
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'union':
      return plausible(def.options?.[0] as Walkable, known, key);
    case 'array':
      return [];
    case 'nullable':
      return plausible(def.innerType as Walkable, known, key);
    case 'pipe':
      return plausible(def.in as Walkable, known, key);
    case 'record':
      return {};
    default:
      return undefined;
  }
}

function firstAccepted(schema: Walkable, candidates: readonly unknown[]): unknown {
  return candidates.find((c) => schema.safeParse(c).success) ?? candidates[0];
}

/**
 * A value of the right outline whose every field has the wrong type: a list
 * of these is the most work a validator can be given per element.
 */
export function nearMiss(schema: Walkable): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, child]) => [k, nearMiss(child)]));
    case 'string':
      return 12345;
    case 'number':
      return 'many';
    case 'boolean':
      return 'yes';
    case 'enum':
      return 'not-one-of-them';
    case 'literal':
      return def.values?.[0];
    case 'union':
      return nearMiss(def.options?.[0] as Walkable);
    case 'array':
      return 'not a list';
    case 'optional':
    case 'default':
    case 'nullable':
      return nearMiss(def.innerType as Walkable);
    default:
      return null;
  }
}

/** The schema's `.max()` of a list, if it has one. */
function maxLength(def: Def): number | undefined {
  return def.checks?.map((c) => c._zod.def).find((c) => c.check === 'max_length')?.maximum;
}

/**
 * Every input with exactly one hostile spot: the whole input, then each field
 * in turn (recursively), plus unknown keys on objects and oversized lists.
 */
export function* hostileInputs(schema: Walkable, known: Readonly<Record<string, unknown>>): Generator<FuzzCase> {
  yield* mutate(schema, known, '', true);
}

function* mutate(schema: Walkable, known: Readonly<Record<string, unknown>>, path: string, whole: boolean): Generator<FuzzCase> {
  const at = path === '' ? '(input)' : path;
  if (whole) for (const h of HOSTILE) yield { where: `${at} = ${h.where}`, value: h.value };
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const base = plausible(schema, {}, '') as Record<string, unknown>;
      const withKnown = { ...base, ...Object.fromEntries(Object.keys(base).filter((k) => k in known).map((k) => [k, known[k]])) };
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        for (const m of mutate(child, known, path === '' ? key : `${path}.${key}`, true)) {
          yield { where: m.where, value: { ...withKnown, [key]: m.value } };
        }
      }
      yield { where: `${at} + unknown key`, value: { ...withKnown, unexpected: 1 } };
      yield { where: `${at} + own __proto__ key`, value: Object.assign(protoKey() as object, withKnown) };
      return;
    }
    case 'array': {
      const element = def.element as Walkable;
      for (const m of mutate(element, known, `${path}[0]`, true)) yield { where: m.where, value: [m.value] };
      const max = maxLength(def);
      if (max !== undefined) {
        const miss = nearMiss(element);
        yield { where: `${at} = ${max} elements, every field wrong`, value: Array.from({ length: max }, () => miss) };
        yield { where: `${at} = ${max + 1} elements`, value: Array.from({ length: max + 1 }, () => plausible(element, known)) };
      }
      return;
    }
    case 'union':
      for (const option of def.options ?? []) yield* mutate(option, known, path, false);
      return;
    case 'optional':
    case 'default':
    case 'nullable':
      yield* mutate(def.innerType as Walkable, known, path, false);
      return;
    case 'pipe':
      yield* mutate(def.in as Walkable, known, path, false);
      return;
    default:
      return;
  }
}

/** Channel names outside the contract, some of them shaped to trip a lookup by name. */
export const UNKNOWN_CHANNELS: readonly string[] = [
  'fs:readFile', '__proto__', 'constructor', 'hasOwnProperty', 'toString', '', ' ', 'drafts:create ', 'DRAFTS:CREATE',
  'drafts:create\u0000', '\u202edrafts:create', HUGE_TEXT,
];
