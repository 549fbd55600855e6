/**
 * Float tokens in the canonical text (pvf-classic-format §4.6 recommendation): the shortest decimal that
 * reads back as the same float32, always with a `.` so every compiler reads it as a float.
 *
 * Layout (pvfUtility's "G7" switch points, so every value needing at most 7 digits prints exactly as
 * pvfUtility prints it): plain decimal when 1e-4 ≤ |x| < 1e7 (`1.5`, `-2.25`, `100000.0`, `0.0001`);
 * otherwise scientific with a `.` in the mantissa and a signed two-digit exponent (`1.0e-05`,
 * `1.2345678e+07`, `3.4028235e+38`). Zero is `0.0`. Negative zero, infinities and NaNs have no plain
 * form: they are written `{4=<int32 bits>}` (formatScriptFloat returns null for them).
 */
import { readsAsFloat32, shortestFloat32Digits } from './canonical-number.js';

const scratch = new DataView(new ArrayBuffer(4));

/** The float32 value of an int32 bit pattern. */
export function float32FromBits(bits: number): number {
  scratch.setInt32(0, bits, true);
  return scratch.getFloat32(0, true);
}

/** The int32 bit pattern of a float32 value. */
export function float32Bits(value: number): number {
  scratch.setFloat32(0, value, true);
  return scratch.getInt32(0, true);
}

/** Canonical text of a float token (by its int32 bits), or null when only `{4=bits}` is exact. */
export function formatScriptFloat(bits: number): string | null {
  const value = float32FromBits(bits);
  if (!Number.isFinite(value)) return null;
  if (value === 0) return Object.is(value, -0) ? null : '0.0';
  const { digits, dp } = shortestFloat32Digits(Math.abs(value));
  const text = layout(value < 0, digits, dp);
  // The lexer of explain and any compiler read it back with float32 rounding: it must give the same bits.
  return readsAsFloat32(text, value) ? text : null;
}

/** Lays out shortest digits (value = 0.digits × 10^dp, no trailing zeros) in the canonical form. */
function layout(negative: boolean, digits: string, dp: number): string {
  const exponent = dp - 1;
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
