import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalWord, formatFloat32, parseFloat32, parseInt32 } from '../../../runtime/script/canonical-number.js';

describe('canonicalWord', () => {
  it('gives plain integers (the fast path) the value the full int32 parse gives, and leaves the rest to it', () => {
    const word = fc.tuple(fc.constantFrom('', '-', '+'), fc.string({ unit: fc.constantFrom('0', '1', '5', '9', 'x', '.'), minLength: 0, maxLength: 12 })).map(([sign, digits]) => sign + digits);
    fc.assert(
      fc.property(word, (raw) => {
        const int = parseInt32(raw);
        const got = canonicalWord(raw);
        if (int !== null) expect(got).toEqual({ type: 0, value: String(int) });
        else expect(got.type).not.toBe(0);
      }),
      { numRuns: 5000 },
    );
    for (const raw of ['0', '-0', '007', '-7', '123456789', '1234567890', '2147483647', '-2147483648', '2147483648']) {
      const int = parseInt32(raw);
      expect(canonicalWord(raw).value).toBe(int === null ? canonicalWord(raw).value : String(int));
    }
    expect(canonicalWord('-0')).toEqual({ type: 0, value: '0' });
  });

  it.each([
    ['+5', 0, '5'],
    ['007', 0, '7'],
    ['-0', 0, '0'],
    ['-2147483648', 0, '-2147483648'],
    ['2147483647', 0, '2147483647'],
    ['1.50', 2, '1.5'],
    ['8000.0', 2, '8000'],
    ['-1.0', 2, '-1'],
    ['.5', 2, '0.5'],
    ['5.', 2, '5'],
    ['-0.0', 2, '-0'],
    ['0.1', 2, '0.1'],
    ['0.0001', 2, '0.0001'],
    ['0.00001', 2, '1e-05'],
    ['123456', 0, '123456'],
    ['123456.0', 2, '123456'],
    ['1234567.0', 2, '1.234567e+06'],
    ['1e6', 2, '1e+06'],
    ['3.4028235e38', 2, '3.4028235e+38'],
    ['1.4e-45', 2, '1e-45'],
    ['1e-50', 2, '0'],
  ] as const)('%s is type %i with value %s', (raw, type, value) => {
    expect(canonicalWord(raw)).toEqual({ type, value });
  });

  it('treats an int32 overflow as a float, as Go ParseInt then ParseFloat do', () => {
    expect(canonicalWord('3000000000')).toEqual({ type: 2, value: '3e+09' });
    expect(canonicalWord('2147483648')).toEqual({ type: 2, value: '2.1474836e+09' });
  });

  it('keeps a float32 overflow as a type-3 word (Go returns a range error)', () => {
    expect(canonicalWord('1e39')).toEqual({ type: 3, value: '1e39' });
    expect(canonicalWord('3.4028236e38')).toEqual({ type: 3, value: '3.4028236e38' });
  });

  it('accepts what Go ParseFloat accepts: inf, nan, hex floats, digit separators', () => {
    expect(canonicalWord('inf')).toEqual({ type: 2, value: '+Inf' });
    expect(canonicalWord('-Infinity')).toEqual({ type: 2, value: '-Inf' });
    expect(canonicalWord('NaN')).toEqual({ type: 2, value: 'NaN' });
    expect(canonicalWord('0x1p-2')).toEqual({ type: 2, value: '0.25' });
    expect(canonicalWord('0X1P+3')).toEqual({ type: 2, value: '8' });
    expect(canonicalWord('1_000')).toEqual({ type: 2, value: '1000' });
  });

  it.each(['abc', '+nan', 'infx', '0x1', '1e', '1e+', '.', '-', '1__0', '_1', '1_', '1.5.3', '12abc', '１２'])('keeps %s as a type-3 word', (raw) => {
    expect(canonicalWord(raw)).toEqual({ type: 3, value: raw });
  });
});

describe('parseInt32', () => {
  it('parses an optional sign and ASCII digits in int32 range', () => {
    expect(parseInt32('-1')).toBe(-1);
    expect(parseInt32('000000000000000000042')).toBe(42);
    expect(parseInt32('2147483648')).toBeNull();
    expect(parseInt32(' 1')).toBeNull();
    expect(parseInt32('')).toBeNull();
    expect(parseInt32('+')).toBeNull();
  });
});

describe('parseFloat32 / formatFloat32', () => {
  it('rounds a decimal straight to float32, not through float64 (no double rounding)', () => {
    // Just above the half-way point between 1 and the next float32: Math.fround(Number(s)) gives 1.
    expect(formatFloat32(parseFloat32('1.0000000596046447753906251') as number)).toBe('1.0000001');
    // Exactly half-way: ties go to the even mantissa, 1.
    expect(parseFloat32('1.000000059604644775390625')).toBe(1);
  });

  it('keeps exact rounding for very long numbers: digits past the 200th only matter as non-zero or not', () => {
    const tie = '1.000000059604644775390625';
    expect(parseFloat32(`${tie}${'0'.repeat(300)}`)).toBe(1);
    expect(formatFloat32(parseFloat32(`${tie}${'0'.repeat(300)}1`) as number)).toBe('1.0000001');
  });

  it('reads and rejects kilobyte-long numbers', () => {
    expect(canonicalWord(`0.${'3'.repeat(100_000)}`)).toEqual({ type: 2, value: '0.33333334' });
    expect(canonicalWord('9'.repeat(100_000))).toEqual({ type: 3, value: '9'.repeat(100_000) });
    expect(canonicalWord(`0x${'f'.repeat(10_000)}p-40000`)).toEqual({ type: 2, value: '1' });
  });

  it('rounds to the smallest subnormal and to zero around 2^-150', () => {
    expect(parseFloat32('7.1e-46')).toBe(2 ** -149);
    expect(parseFloat32('7e-46')).toBe(0);
  });

  it('formats the shortest digits that read back as the same float32', () => {
    expect(formatFloat32(Math.fround(0.3))).toBe('0.3');
    expect(formatFloat32(2 ** 24)).toBe('1.6777216e+07');
    expect(formatFloat32(Math.fround(3.4028234663852886e38))).toBe('3.4028235e+38');
    expect(formatFloat32(2 ** -149)).toBe('1e-45');
    expect(formatFloat32(Math.fround(1.1754942e-38))).toBe('1.1754942e-38');
  });

  it('round-trips every finite float32 through its shortest form', () => {
    const view = new DataView(new ArrayBuffer(4));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (bits) => {
        view.setUint32(0, bits);
        const f = view.getFloat32(0);
        fc.pre(Number.isFinite(f));
        const text = formatFloat32(f);
        expect(Object.is(parseFloat32(text), f)).toBe(true);
        // Canonical forms are stable: re-reading a canonical float word gives the same text.
        const again = canonicalWord(text);
        expect(again.type === 0 ? again.value : formatFloat32(parseFloat32(again.value) as number)).toBe(again.value);
      }),
      { numRuns: 2000 },
    );
  });
});
