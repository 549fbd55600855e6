/**
 * The float texts of decompiled scripts: formatScriptFloat's two shortcuts (plain values from float64
 * arithmetic alone, other values from one toPrecision(9)) against the exact BigInt formatter, on the
 * values compilers store (short decimals), their neighbours, ties and the ends of each shortcut's
 * range; and DecompileMemo's direct-mapped float table, which must give the formatter's text for
 * every bit pattern whatever it overwrote.
 */
import { describe, expect, it } from 'vitest';
import { DecompileMemo } from '../../../runtime/classic/decompile-memo.js';
import { formatFloat32Exact, parseFloat32 } from '../../../runtime/script/canonical-number.js';
import { float32Bits, float32FromBits, formatScriptFloat, plainFloatParts } from '../../../runtime/script/script-float.js';
import { ScriptTextWriter } from '../../../runtime/classic/script-text-writer.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { seededRandom } from '../../support/random.js';

/** The canonical float text from the exact formatter alone: Go's %g digits laid out again, read back exactly. */
function exactScriptFloat(bits: number): string | null {
  const value = float32FromBits(bits);
  if (!Number.isFinite(value)) return null;
  if (value === 0) return Object.is(value, -0) ? null : '0.0';
  const g = formatFloat32Exact(value);
  const negative = g.startsWith('-');
  const body = negative ? g.slice(1) : g;
  const e = body.indexOf('e');
  const mantissa = e < 0 ? body : body.slice(0, e);
  const dot = mantissa.indexOf('.');
  const integer = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const all = (dot < 0 ? mantissa : integer + mantissa.slice(dot + 1)).replace(/^0+/, '');
  const leadingZeros = dot < 0 || integer !== '0' ? 0 : mantissa.slice(dot + 1).length - mantissa.slice(dot + 1).replace(/^0+/, '').length;
  const exponent = (e < 0 ? 0 : Number(body.slice(e + 1))) + (integer !== '0' ? integer.length - 1 : -(leadingZeros + 1));
  const digits = all.replace(/0+$/, '') || '0';
  const sign = negative ? '-' : '';
  let text: string;
  if (exponent >= -4 && exponent < 7) {
    if (exponent < 0) text = `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    else {
      const fraction = digits.slice(exponent + 1);
      text = `${sign}${digits.slice(0, exponent + 1).padEnd(exponent + 1, '0')}.${fraction === '' ? '0' : fraction}`;
    }
  } else {
    const magnitude = Math.abs(exponent);
    text = `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${exponent < 0 ? '-' : '+'}${magnitude < 10 ? '0' : ''}${magnitude}`;
  }
  return parseFloat32(text) === value ? text : null;
}

/** Short decimals (what a compiler stores for `12.345`), their float32 neighbours, both signs. */
function shortDecimals(): number[] {
  const rng = seededRandom(20261201);
  const out: number[] = [];
  for (let k = 0; k < 40_000; k++) {
    const digits = 1 + Math.floor(rng() * 8);
    const scale = Math.floor(rng() * 10);
    const value = Math.floor(rng() * 10 ** digits) / 10 ** scale;
    const bits = float32Bits(rng() < 0.5 ? value : -value);
    out.push(bits, bits + 1, bits - 1);
  }
  return out;
}

/** The ends of the shortcuts' ranges (1e-3, 1e6, 1e-4, 1e7, 1e±22 scaled) and decimal ties m × 2^-k. */
function edges(): number[] {
  const out: number[] = [];
  for (const x of [1e-3, 1e6, 1e-4, 1e7, 999999.94, 0.00099999, 1e-22, 1e22, 3.4e38, 1e-38, 1, 10, 0.1, 0.5]) {
    const b = float32Bits(x);
    for (let d = -40; d <= 40; d++) out.push(b + d);
  }
  for (let m = 1; m < 2048; m += 2) for (let k = 1; k <= 14; k++) out.push(float32Bits(m * 2 ** -k), float32Bits(m * 2 ** -k * 1000));
  return out;
}

describe('float texts', () => {
  it('match the exact formatter on short decimals, their neighbours, ties and range ends', () => {
    const cases = [...shortDecimals(), ...edges()];
    const wrong = cases.filter((bits) => formatScriptFloat(bits | 0) !== exactScriptFloat(bits | 0)).slice(0, 5);
    expect(wrong.map((bits) => ({ bits, text: formatScriptFloat(bits | 0) }))).toEqual(wrong.map((bits) => ({ bits, text: exactScriptFloat(bits | 0) })));
    expect(cases.length).toBeGreaterThan(100_000);
  });

  it('match the exact formatter on a sweep of the plain range 1e-3 … 1e6', () => {
    const low = float32Bits(1e-3) - 5;
    const high = float32Bits(1e6) + 5;
    const step = Math.floor((high - low) / 30_000);
    for (let bits = low; bits <= high; bits += step) {
      if (formatScriptFloat(bits) !== exactScriptFloat(bits)) expect({ bits, text: formatScriptFloat(bits) }).toEqual({ bits, text: exactScriptFloat(bits) });
    }
  });

  it('lay out plain values with the fewest digits', () => {
    expect([12.345, -0.5, 100, 0.001, 999999, 1.1, 0.1, 3.14159].map((x) => formatScriptFloat(float32Bits(x)))).toEqual(['12.345', '-0.5', '100.0', '0.001', '999999.0', '1.1', '0.1', '3.14159']);
  });
});

describe('plain floats written from their digits', () => {
  it('give formatScriptFloat’s text wherever plainFloatParts answers, and it answers for most short decimals', () => {
    const writer = new ScriptTextWriter();
    const parts = new Float64Array(2);
    const low = float32Bits(1e-3) - 5;
    const high = float32Bits(1e6) + 5;
    const sweep: number[] = [];
    for (let bits = low; bits <= high; bits += 3001) sweep.push(bits, -(bits ^ 0x80000000) | 0, bits | 0x80000000);
    const cases = [...shortDecimals(), ...edges(), ...sweep, 0, 0x80000000 | 0, 0x7f800000, 0x7fc00000];
    let answered = 0;
    for (const bits of cases.map((b) => b | 0)) {
      const x = float32FromBits(bits);
      if (x === 0 || !plainFloatParts(bits, x, parts)) continue;
      answered++;
      writer.start({ maxUnits: Infinity, tooLarge: () => new PvfdocError('RESPONSE_TOO_LARGE', 'x') });
      writer.plainFloat(x < 0, parts[0] as number, parts[1] as number);
      const text = writer.finish();
      if (text !== formatScriptFloat(bits)) expect({ bits, text }).toEqual({ bits, text: formatScriptFloat(bits) });
    }
    expect(answered).toBeGreaterThan(100_000);
  });
});

describe('DecompileMemo floats', () => {
  it('does not take an empty slot for the zero pattern', () => {
    const memo = new DecompileMemo();
    expect(memo.float(0x80000000 | 0)).toBeNull();
    expect(memo.float(0)).toBe('0.0');
  });

  it('gives the formatter\'s text for every pattern, across slot collisions and overwrites', () => {
    const memo = new DecompileMemo();
    const rng = seededRandom(7);
    // 40 000 distinct patterns overfill the table (8192 slots); a third of the lookups repeat an earlier one.
    const seen: number[] = [];
    for (let k = 0; k < 60_000; k++) {
      const bits = k % 3 === 2 && seen.length > 0 ? (seen[Math.floor(rng() * seen.length)] as number) : Math.floor(rng() * 2 ** 32) | 0;
      if (k % 3 !== 2) seen.push(bits);
      const text = memo.float(bits);
      if (text !== formatScriptFloat(bits)) expect({ bits, text }).toEqual({ bits, text: formatScriptFloat(bits) });
    }
    // Zero bits are the table's initial key: a slot never filled must not read as holding 0.0.
    expect(memo.float(0)).toBe('0.0');
    expect(memo.float(0x80000000 | 0)).toBeNull();
    expect(memo.float(0)).toBe('0.0');
    expect(memo.float(float32Bits(1.5))).toBe('1.5');
    expect(memo.float(float32Bits(-1.5))).toBe('-1.5');
  });
});
