import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineIndex, lineIndexSteps, normalizeText } from '../../../runtime/script/normalize-text.js';

describe('normalizeText', () => {
  it('turns CRLF and lone CR into LF and leaves LF alone', () => {
    expect(normalizeText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
    expect(normalizeText('\r\r\n\n\r')).toBe('\n\n\n\n');
    expect(normalizeText('无换行')).toBe('无换行');
  });

  it('is idempotent and leaves no CR behind', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\r', '\n', '\r\n', '中', '😀') }), (text) => {
        const once = normalizeText(text);
        expect(once).not.toContain('\r');
        expect(normalizeText(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the offsets pvfine gives with CRLF counted as one unit (rule-format §3.3)', () => {
    // pvfine: `[name]` 0..6, CRLF counts 1, so the string starts at 7; 😀 counts 2 and 中 1 → [7, 12).
    const text = normalizeText('[name]\r\n`😀中`');
    expect(text.indexOf('`')).toBe(7);
    expect(text.length).toBe(12);
  });
});

describe('createLineIndex', () => {
  it('maps offsets to 1-based lines and UTF-16 columns', () => {
    const lines = createLineIndex('[name]\n`😀中`\n');
    expect(lines.lineCount).toBe(3);
    expect(lines.offsetToPosition(0)).toEqual({ line: 1, column: 1 });
    expect(lines.offsetToPosition(6)).toEqual({ line: 1, column: 7 });
    expect(lines.offsetToPosition(7)).toEqual({ line: 2, column: 1 });
    // After the emoji (2 units) and 中 (1 unit) the closing backtick sits at column 5.
    expect(lines.offsetToPosition(11)).toEqual({ line: 2, column: 5 });
    expect(lines.offsetToPosition(12)).toEqual({ line: 2, column: 6 });
    expect(lines.offsetToPosition(13)).toEqual({ line: 3, column: 1 });
  });

  it('clamps offsets and positions outside the text', () => {
    const lines = createLineIndex('ab\ncd');
    expect(lines.offsetToPosition(-5)).toEqual({ line: 1, column: 1 });
    expect(lines.offsetToPosition(99)).toEqual({ line: 2, column: 3 });
    expect(lines.positionToOffset({ line: 0, column: 0 })).toBe(0);
    expect(lines.positionToOffset({ line: 1, column: 99 })).toBe(2);
    expect(lines.positionToOffset({ line: 9, column: 2 })).toBe(4);
  });

  it('has one empty line for an empty text', () => {
    const lines = createLineIndex('');
    expect(lines.lineCount).toBe(1);
    expect(lines.offsetToPosition(0)).toEqual({ line: 1, column: 1 });
    expect(lines.positionToOffset({ line: 1, column: 1 })).toBe(0);
  });

  it('round-trips every offset through its position', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '中', '😀', ' ') }), fc.nat(), (raw, n) => {
        const text = normalizeText(raw);
        const lines = createLineIndex(text);
        const offset = n % (text.length + 1);
        const position = lines.offsetToPosition(offset);
        expect(lines.positionToOffset(position)).toBe(offset);
        expect(lines.offsetToPosition(lines.positionToOffset(position))).toEqual(position);
      }),
      { numRuns: 500 },
    );
  });

  it('is built in steps over a large text, to the same lines', () => {
    // 6 Mi units of short lines: lineIndexSteps yields every 2 Mi units of text scanned.
    const text = 'abc\n'.repeat(3 * 512 * 1024) + 'tail';
    const steps = lineIndexSteps(text);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThanOrEqual(2);
    const lines = step.value;
    expect(lines.lineCount).toBe(3 * 512 * 1024 + 1);
    expect(lines.offsetToPosition(text.length - 1)).toEqual({ line: lines.lineCount, column: 4 });
    expect(lines.offsetToPosition(4 * 700_001)).toEqual({ line: 700_002, column: 1 });
  });
});
