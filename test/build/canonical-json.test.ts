/**
 * canonicalJson (runtime/bundle/canonical-json.ts) is what makes bundles byte-deterministic: the bytes
 * depend on the value only, never on the order its keys were written in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCanonicalJson } from '../../build/compile-layers.js';
import { parseJsonDocument } from '../../build/parse-json-document.js';
import { canonicalJson, sha256Hex } from '../../runtime/bundle/canonical-json.js';

/** The same value with every object's keys inserted in the order `pick` chooses. */
function permuteKeys(value: unknown, pick: (n: number) => number): unknown {
  if (Array.isArray(value)) return value.map((item) => permuteKeys(item, pick));
  if (value === null || typeof value !== 'object') return value;
  const rest = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  while (rest.length > 0) {
    const [[key, member]] = rest.splice(pick(rest.length) % rest.length, 1) as [[string, unknown]];
    Object.defineProperty(out, key, { value: permuteKeys(member, pick), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Keys in the order they appear in a JSON text, for every object, depth first. */
function keyOrders(text: string): string[][] {
  const doc = parseJsonDocument(text);
  const out: string[][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const entries = doc.entriesOf(value);
      out.push(entries.map(([k]) => k));
      entries.forEach(([, v]) => walk(v));
    }
  };
  walk(doc.value);
  return out;
}

const objectKey = fc.oneof(
  fc.string(),
  fc.constantFrom('10', '2', '1', '001', '0', '-1', '1.5', 'a', 'B', '__proto__', 'constructor', 'é', '中文', '\u{1F600}', '\uFFFF'),
);
const jsonLike = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.string({ unit: 'grapheme' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(objectKey, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('canonicalJson', () => {
  it('gives the same bytes whatever order keys were inserted in (property)', () => {
    fc.assert(
      fc.property(jsonLike, fc.array(fc.nat(), { minLength: 1, maxLength: 20 }), (value, choices) => {
        let i = 0;
        const pick = (n: number) => (choices[i++ % choices.length] ?? 0) % n;
        const permuted = permuteKeys(value, pick);
        expect(canonicalJson(permuted)).toBe(canonicalJson(value));
        expect(sha256Hex(canonicalJson(permuted))).toBe(sha256Hex(canonicalJson(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('is valid JSON that parses back to the same value, and is idempotent (property)', () => {
    fc.assert(
      fc.property(jsonLike, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(canonicalJson(parseJsonDocument(text).value)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('writes every object with its keys sorted by UTF-16 code units (property)', () => {
    fc.assert(
      fc.property(jsonLike, (value) => {
        for (const keys of keyOrders(canonicalJson(value))) {
          const sorted = [...keys].sort();
          expect(keys).toEqual(sorted);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sorts integer-like keys as strings, not numbers (unlike JSON.stringify)', () => {
    const value = { a: 3, '2': 2, '10': 1 };
    expect(canonicalJson(value)).toBe('{"10":1,"2":2,"a":3}');
    expect(JSON.stringify(value)).toBe('{"2":2,"10":1,"a":3}');
    expect(canonicalJson({ '1': 'x', '001': 'y', '01': 'z', '-1': 'w' })).toBe('{"-1":"w","001":"y","01":"z","1":"x"}');
  });

  it('sorts by code units: upper case before lower case, astral characters by their surrogates', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, A: 4 })).toBe('{"A":4,"B":2,"a":3,"b":1}');
    // U+1F600 is \uD83D\uDE00, which sorts before U+FFFF in code units (not in code points).
    expect(canonicalJson({ '\uFFFF': 1, '\u{1F600}': 2 })).toBe('{"\u{1F600}":2,"\uFFFF":1}');
  });

  it('has no insignificant whitespace, keeps array order and nested structure', () => {
    expect(canonicalJson({ z: [3, 1, 2], a: { y: 'text with spaces', x: null } })).toBe('{"a":{"x":null,"y":"text with spaces"},"z":[3,1,2]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('drops undefined members and writes undefined array items and null as null', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined, null])).toBe('[null,null]');
  });

  it('rejects values JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
  });

  it('escapes strings as JSON does', () => {
    expect(canonicalJson({ 'k"\\\n': 'v\u0001"\u2028' })).toBe(JSON.stringify({ 'k"\\\n': 'v\u0001"\u2028' }));
  });
});

describe('toCanonicalJson (the build\'s faster path)', () => {
  it('writes exactly the bytes of canonicalJson (property)', () => {
    fc.assert(
      fc.property(jsonLike, fc.array(fc.nat(), { minLength: 1, maxLength: 20 }), (value, choices) => {
        let i = 0;
        const permuted = permuteKeys(value, (n) => (choices[i++ % choices.length] ?? 0) % n);
        expect(toCanonicalJson(permuted)).toBe(canonicalJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it('falls back to canonicalJson for array-index keys, __proto__, undefined items and values JSON cannot hold', () => {
    expect(toCanonicalJson({ a: 3, '2': 2, '10': 1 })).toBe('{"10":1,"2":2,"a":3}');
    expect(toCanonicalJson({ nested: [{ '0': 'x', b: 'y' }] })).toBe('{"nested":[{"0":"x","b":"y"}]}');
    expect(toCanonicalJson({ '4294967295': 1, '4294967294': 2 })).toBe('{"4294967294":2,"4294967295":1}');
    const proto = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
    expect(toCanonicalJson(proto)).toBe(canonicalJson(proto));
    expect(toCanonicalJson(proto)).toBe('{"__proto__":{"x":1},"a":2}');
    expect(toCanonicalJson([undefined, null, { a: undefined, b: 1 }])).toBe('[null,null,{"b":1}]');
    expect(toCanonicalJson(undefined)).toBe('null');
    expect(() => toCanonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => toCanonicalJson({ a: 1n })).toThrow(TypeError);
    expect(() => toCanonicalJson({ f: () => 1 })).toThrow(TypeError);
  });
});

describe('sha256Hex', () => {
  it('hashes UTF-8 text and bytes alike', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('中')).toBe(sha256Hex(new Uint8Array(Buffer.from('中', 'utf8'))));
  });
});
