/**
 * parseJsonDocument (build/parse-json-document.ts) reads rule files: it keeps the source order of keys
 * (enum keys "001" and "1" are distinct and ordered as written), reports duplicate keys, locates syntax
 * errors by line and column, and accepts exactly one JSON value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonDocument } from '../../build/parse-json-document.js';

function syntaxError(text: string): JsonSyntaxError {
  try {
    parseJsonDocument(text);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    return error as JsonSyntaxError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

describe('key order', () => {
  it('keeps source order, including integer-like keys such as "001", "1", "10", "2"', () => {
    const doc = parseJsonDocument('{"values": {"1": "a", "001": "b", "10": "c", "2": "d", "x": "e", "01": "f"}}');
    const values = (doc.value as { values: Record<string, string> }).values;
    expect(doc.entriesOf(values)).toEqual([
      ['1', 'a'],
      ['001', 'b'],
      ['10', 'c'],
      ['2', 'd'],
      ['x', 'e'],
      ['01', 'f'],
    ]);
    // What JS itself would do with the same object: integer-like keys first, in numeric order.
    expect(Object.keys(values)).toEqual(['1', '2', '10', '001', 'x', '01']);
    expect(values['001']).toBe('b');
    expect(values['1']).toBe('a');
  });

  it('gives entries of nested objects inside arrays', () => {
    const doc = parseJsonDocument('[{"b": 1, "a": 2}, {"z": {"9": true, "8": false}}]');
    const [first, second] = doc.value as [Record<string, unknown>, { z: Record<string, boolean> }];
    expect(doc.entriesOf(first).map(([k]) => k)).toEqual(['b', 'a']);
    expect(doc.entriesOf(second.z)).toEqual([
      ['9', true],
      ['8', false],
    ]);
  });

  it('agrees with JSON.parse on values, and entries follow the text (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const doc = parseJsonDocument(text);
        expect(doc.value).toEqual(JSON.parse(text));
        expect(doc.duplicateKeys).toEqual([]);
        const walk = (parsed: unknown, original: unknown): void => {
          if (Array.isArray(parsed)) parsed.forEach((item, i) => walk(item, (original as unknown[])[i]));
          else if (parsed !== null && typeof parsed === 'object') {
            // JSON.stringify writes keys in Object.keys order, so the text order is that order.
            expect(doc.entriesOf(parsed).map(([k]) => k)).toEqual(Object.keys(original as object));
            for (const [k, v] of doc.entriesOf(parsed)) walk(v, (original as Record<string, unknown>)[k]);
          }
        };
        walk(doc.value, value);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a "__proto__" key as an own member', () => {
    const doc = parseJsonDocument('{"__proto__": {"polluted": true}, "a": 1}');
    const value = doc.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('duplicate keys', () => {
  it('reports each duplicate with the path of its object; the later value wins', () => {
    const doc = parseJsonDocument('{"a": 1, "rules": [{"id": "x", "b": {"k": 1, "k": 2}}], "a": 3}');
    expect(doc.duplicateKeys).toEqual([
      { path: '$.rules[0].b', key: 'k' },
      { path: '$', key: 'a' },
    ]);
    const value = doc.value as { a: number; rules: { b: { k: number } }[] };
    expect(value.a).toBe(3);
    expect(value.rules[0]?.b.k).toBe(2);
    expect(doc.entriesOf(value).filter(([k]) => k === 'a')).toEqual([['a', 3]]);
  });

  it('reports nothing for the same key in different objects', () => {
    expect(parseJsonDocument('[{"a": 1}, {"a": 2}]').duplicateKeys).toEqual([]);
  });
});

describe('syntax errors', () => {
  it('report the line and column (1-based)', () => {
    const error = syntaxError('{\n  "a": 1,\n  "b" 2\n}');
    expect(error.line).toBe(3);
    expect(error.column).toBe(7);
    expect(error.message).toContain("expected ':'");
    expect(error.message).toContain('line 3, column 7');
  });

  it('locate a missing comma between two array items', () => {
    const error = syntaxError('{\n  "rules": [\n    {"id": "a"}\n    {"id": "b"}\n  ]\n}\n');
    expect([error.line, error.column]).toEqual([4, 5]);
  });

  it('count CRLF line ends as one line each', () => {
    const error = syntaxError('{\r\n"a": 1,\r\n"b": tru\r\n}');
    expect(error.line).toBe(3);
  });

  it('reject trailing commas, comments, single quotes, leading zeros, bare words and NaN', () => {
    for (const text of ['{"a": 1,}', '[1, 2,]', '{"a": 1 // note\n}', "{'a': 1}", '{"a": 01}', '{"a": yes}', '{"a": NaN}', '{"a": .5}', '{"a": 1.}']) {
      expect(() => parseJsonDocument(text), text).toThrow(JsonSyntaxError);
    }
  });

  it('reject unterminated strings, raw control characters and bad escapes', () => {
    expect(syntaxError('{"a": "abc').message).toContain('unterminated string');
    expect(syntaxError('{"a": "a\tb"}').message).toContain('control character');
    expect(syntaxError('{"a": "\\x41"}').message).toContain('escape');
  });

  it('reject an empty file', () => {
    expect(syntaxError('').message).toContain('empty');
    expect(syntaxError(' \n\t ').message).toContain('empty');
    expect(syntaxError('\uFEFF').message).toContain('empty');
  });

  it('reject nesting deeper than 200 levels, without overflowing the stack', () => {
    expect(() => parseJsonDocument(`${'['.repeat(150)}${']'.repeat(150)}`)).not.toThrow();
    expect(syntaxError(`${'['.repeat(5000)}${']'.repeat(5000)}`).message).toContain('deeper than 200');
  });
});

describe('exactly one JSON value', () => {
  it('rejects a second value after the first', () => {
    for (const text of ['{"a": 1} {"b": 2}', '{"a": 1}\n{"a": 1}\n', '[1] 2', '1 2', '{} x', '"a""b"']) {
      expect(syntaxError(text).message, text).toMatch(/second JSON value|expected/);
    }
    const error = syntaxError('{"a": 1}\n\n  {"b": 2}');
    expect(error.message).toContain('second JSON value');
    expect([error.line, error.column]).toEqual([3, 3]);
  });

  it('allows trailing whitespace and newlines', () => {
    expect(parseJsonDocument('{"a": 1}\n\r\n\t ').value).toEqual({ a: 1 });
  });
});

describe('byte order mark', () => {
  it('accepts a leading BOM', () => {
    const doc = parseJsonDocument('\uFEFF{"version": 1, "b": 2, "a": 1}');
    expect(doc.value).toEqual({ version: 1, b: 2, a: 1 });
    expect(doc.entriesOf(doc.value as object).map(([k]) => k)).toEqual(['version', 'b', 'a']);
  });

  it('accepts a BOM before a CRLF file', () => {
    expect(parseJsonDocument('\uFEFF{\r\n  "a": [1, 2]\r\n}\r\n').value).toEqual({ a: [1, 2] });
  });

  it('does not accept a BOM anywhere else', () => {
    expect(() => parseJsonDocument('{"a": 1}\uFEFF')).toThrow(JsonSyntaxError);
  });
});

describe('scalars', () => {
  it('reads numbers, strings with escapes and literals like JSON.parse', () => {
    const text = '[0, -0, 1.5e3, -2E-2, 1e400, "\\u4e2d\\n\\"\\\\", true, false, null, "\\ud83d\\ude00"]';
    expect(parseJsonDocument(text).value).toEqual(JSON.parse(text));
  });
});
