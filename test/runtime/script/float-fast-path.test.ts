/**
 * The float formatters' fast path (toPrecision + Number with an exact fallback, canonical-number.ts)
 * against the exact BigInt search they replaced: the same text for formatFloat32 and byte-identical
 * canonical float tokens (formatScriptFloat) on random float32 bit patterns and on the hard cases —
 * subnormals, powers of two (uneven gaps), decimal ties, values whose float64 neighbours are half-way
 * points, the ends of the plain layout, ±0, ±Inf and NaNs.
 */
import { describe, expect, it } from 'vitest';
import { formatFloat32, formatFloat32Exact, parseFloat32 } from '../../../runtime/script/canonical-number.js';
import { float32Bits, float32FromBits, formatScriptFloat } from '../../../runtime/script/script-float.js';
import { seededRandom } from '../../support/random.js';

/** formatScriptFloat as it was before the fast path: Go's %g text re-laid out, then parsed back exactly. */
function referenceScriptFloat(bits: number): string | null {
  const value = float32FromBits(bits);
  if (!Number.isFinite(value)) return null;
  if (value === 0) return Object.is(value, -0) ? null : '0.0';
  const text = referenceLayout(formatFloat32Exact(value));
  const back = parseFloat32(text);
  return back !== null && back === value ? text : null;
}

function referenceLayout(g: string): string {
  const negative = g.startsWith('-');
  const body = negative ? g.slice(1) : g;
  let digits: string;
  let exponent: number;
  const e = body.indexOf('e');
  if (e >= 0) {
    digits = body.slice(0, e).replace('.', '');
    exponent = Number(body.slice(e + 1));
  } else {
    const dot = body.indexOf('.');
    const integer = dot < 0 ? body : body.slice(0, dot);
    const fraction = dot < 0 ? '' : body.slice(dot + 1);
    if (integer !== '0') {
      exponent = integer.length - 1;
      digits = integer + fraction;
    } else {
      const zeros = fraction.length - fraction.replace(/^0+/, '').length;
      exponent = -(zeros + 1);
      digits = fraction.slice(zeros);
    }
  }
  digits = digits.replace(/0+$/, '') || '0';
  const sign = negative ? '-' : '';
  if (exponent >= -4 && exponent < 7) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const integer = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${integer}.${fraction === '' ? '0' : fraction}`;
  }
  const mantissa = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}`;
  const magnitude = Math.abs(exponent);
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude < 10 ? '0' : ''}${magnitude}`;
}

const bitsOf = float32Bits;

/** Bit patterns where a shortcut would go wrong first. */
function edgeCases(): number[] {
  const out: number[] = [0, 0x80000000, 0x7f800000, 0xff800000 | 0, 0x7fc00000, 0x7f800001, 0xffffffff | 0, 0x7fbfffff];
  // Subnormals: the smallest ones, the largest, and every power of two among them.
  for (let b = 1; b <= 64; b++) out.push(b, 0x800000 - b);
  for (let k = 0; k < 23; k++) out.push(1 << k, (1 << k) + 1, (1 << k) - 1);
  // Every power of two (the gap below is half the gap above) and its neighbours, both signs.
  for (let exp = 1; exp < 255; exp++) {
    const p = exp << 23;
    out.push(p, p + 1, p - 1, p | 0x80000000, (p + 1) | 0x80000000);
  }
  // Largest finite, smallest normal, 1e-4 and 1e7 (the plain layout's ends), and their neighbours.
  for (const x of [3.4028234663852886e38, 1.1754943508222875e-38, 0.0001, 1e7, 9999999, 10000001, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 16777216, 16777217]) {
    const b = bitsOf(x);
    out.push(b - 2, b - 1, b, b + 1, b + 2);
  }
  // Decimal ties: m × 2^-k has a short expansion ending in 5, where toPrecision rounds half up and the
  // exact search to even (1000000.125, 0.375, 2.5, 12.5…).
  for (let m = 1; m < 4096; m += 2) for (let k = 1; k <= 12; k++) out.push(bitsOf(m * 2 ** -k), bitsOf(-(m * 2 ** -k)));
  for (let m = 8_000_001; m < 8_004_000; m += 2) out.push(bitsOf(m / 8), bitsOf(m / 16), bitsOf(m / 2));
  // Short decimals as a compiler stores them (fround of a typed value).
  for (let n = -2000; n <= 2000; n++) out.push(bitsOf(n / 10), bitsOf(n / 100), bitsOf(n / 1000), bitsOf(n * 1.25e-5), bitsOf(n * 12345.678));
  return out.map((b) => b | 0);
}

function randomBits(count: number, seed: number): number[] {
  const rng = seededRandom(seed);
  return Array.from({ length: count }, () => Math.floor(rng() * 2 ** 32) | 0);
}

describe('float formatting fast path', () => {
  it('gives the exact formatter\'s canonical float text on the hard cases (subnormals, powers of two, ties, ±0, inf, NaN)', () => {
    const cases = edgeCases();
    let mismatches = 0;
    for (const bits of cases) {
      const expected = referenceScriptFloat(bits);
      const actual = formatScriptFloat(bits);
      if (actual !== expected) {
        mismatches++;
        expect({ bits, actual }).toEqual({ bits, actual: expected });
      }
      const value = float32FromBits(bits);
      if (formatFloat32(value) !== formatFloat32Exact(value)) expect({ bits, fast: formatFloat32(value) }).toEqual({ bits, fast: formatFloat32Exact(value) });
    }
    expect(mismatches).toBe(0);
    expect(cases.length).toBeGreaterThan(50_000);
  });

  it('gives the exact formatter\'s text on 100 000 random float32 bit patterns', () => {
    for (const bits of randomBits(100_000, 20261201)) {
      const value = float32FromBits(bits);
      const expected = referenceScriptFloat(bits);
      if (formatScriptFloat(bits) !== expected) expect({ bits, text: formatScriptFloat(bits) }).toEqual({ bits, text: expected });
      if (formatFloat32(value) !== formatFloat32Exact(value)) expect({ bits, fast: formatFloat32(value) }).toEqual({ bits, fast: formatFloat32Exact(value) });
    }
  });

  it('keeps the special values: null for -0, ±Inf and NaN; Go spellings in formatFloat32', () => {
    expect([0x80000000, 0x7f800000, 0xff800000, 0x7fc00001].map((b) => formatScriptFloat(b | 0))).toEqual([null, null, null, null]);
    expect([-0, Infinity, -Infinity, NaN].map(formatFloat32)).toEqual(['-0', '+Inf', '-Inf', 'NaN']);
    expect(formatScriptFloat(bitsOf(1000000.125))).toBe('1000000.1');
    expect(formatFloat32(0.375)).toBe('0.375');
    expect(formatFloat32(2 ** -10)).toBe('0.0009765625');
  });
});
