/**
 * The decompiler's output buffer against what the text used to be made of (String, template strings,
 * normalizeText): integers, quoted strings with backticks, CR and CRLF, one- and two-byte texts, growth
 * past the kept capacity and the size limit, and reuse across texts.
 */
import { describe, expect, it } from 'vitest';
import { PvfdocError } from '../../../runtime/errors.js';
import { ScriptTextWriter, type TextLimit } from '../../../runtime/classic/script-text-writer.js';
import { normalizeText } from '../../../runtime/script/normalize-text.js';
import { seededRandom } from '../../support/random.js';

const UNLIMITED: TextLimit = { maxUnits: Infinity, tooLarge: () => new PvfdocError('RESPONSE_TOO_LARGE', 'unexpected') };

function written(write: (w: ScriptTextWriter) => void, writer = new ScriptTextWriter()): string {
  writer.start(UNLIMITED);
  write(writer);
  return writer.finish();
}

describe('ScriptTextWriter', () => {
  it('writes every int32 as String does', () => {
    const rand = seededRandom(11);
    const values = [-2147483648, 2147483647, -2147483647, -1000000000, 999999999, 1000000000, -10, -9, -1, 0, 1, 9, 10, 99, 100];
    for (let i = 0; i < 5000; i++) values.push(Math.floor(rand() * 2 ** 32) | 0, Math.floor(rand() * 40_000) - 5_000);
    const writer = new ScriptTextWriter();
    for (const value of values) expect(written((w) => w.int(value), writer)).toBe(String(value));
    expect(written((w) => values.forEach((v) => (w.int(v), w.ascii(0x09))))).toBe(values.map((v) => `${String(v)}\t`).join(''));
  });

  it('quotes strings, doubling backticks, and turns CRLF and CR into LF', () => {
    const cases = ['', 'plain', 'a`b``', '`', '```', 'line\r\nnext\rlast\n', '\r', '\r\n', '\r\r\n`\r', '强化`武器\r\n', 'x'.repeat(70_000) + '`'.repeat(5)];
    for (const s of cases) {
      expect(written((w) => w.quoted(s))).toBe(normalizeText(`\`${s.replaceAll('`', '``')}\``));
      expect(written((w) => w.text(s))).toBe(normalizeText(s));
    }
  });

  it('gives one-byte strings for Latin-1 texts and two-byte strings otherwise, with the same characters', () => {
    const latin = written((w) => w.text('[name]\té\u00ff'));
    expect(latin).toBe('[name]\té\u00ff');
    const wide = written((w) => (w.text('[name]\t'), w.quoted('巨剑'), w.text('\u{1f600}')));
    expect(wide).toBe('[name]\t`巨剑`\u{1f600}');
  });

  it('writes line starts with the given indent', () => {
    expect(written((w) => (w.lineStart(0), w.lineStart(3)))).toBe('\n\n\t\t\t');
  });

  it('grows past its kept capacity and starts clean for the next text', () => {
    const writer = new ScriptTextWriter();
    const long = 'ab'.repeat(200_000);
    expect(written((w) => (w.text(long), w.int(-5)), writer)).toBe(`${long}-5`);
    expect(written((w) => w.text('short'), writer)).toBe('short');
    expect(written((w) => w.text('宽'), writer)).toBe('宽');
    expect(written((w) => w.text('narrow'), writer)).toBe('narrow');
  });

  it('throws the limit’s error instead of passing it, and counts what it wrote', () => {
    const writer = new ScriptTextWriter();
    const limit: TextLimit = { maxUnits: 100_000, tooLarge: () => new PvfdocError('RESPONSE_TOO_LARGE', 'too large') };
    writer.start(limit);
    writer.text('x'.repeat(100_000));
    expect(writer.size).toBe(100_000);
    expect(() => writer.ascii(0x61)).toThrow(/too large/);
    writer.start(limit);
    expect(() => writer.quoted('`'.repeat(60_000))).toThrow(/too large/);
    // A limit below the buffer's capacity holds as well, to the unit.
    const ten: TextLimit = { maxUnits: 10, tooLarge: () => new PvfdocError('RESPONSE_TOO_LARGE', 'past ten') };
    writer.start(ten);
    writer.text('12345678');
    writer.int(-1);
    expect(() => writer.ascii(0x61)).toThrow(/past ten/);
    writer.start(ten);
    writer.int(123456789);
    expect(() => writer.int(10)).toThrow(/past ten/);
    writer.start(UNLIMITED);
    writer.text('ok');
    expect(writer.finish()).toBe('ok');
  });
});
