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
  const fast = plainTextFast(bits, value) ?? shortTextFast(bits, value);
  if (fast !== null) return fast;
  const { digits, dp } = shortestFloat32Digits(Math.abs(value));
  const text = layout(value < 0, digits, dp);
  // The lexer of explain and any compiler read it back with float32 rounding: it must give the same bits.
  return readsAsFloat32(text, value) ? text : null;
}

/** 10^k for k = 0..22, each exact in a float64 (5^22 < 2^53), built by exact multiplications. */
const POW10: readonly number[] = (() => {
  const powers = [1];
  for (let k = 1; k <= 22; k++) powers.push((powers[k - 1] as number) * 10);
  return powers;
})();

/**
 * The canonical text of a float32 with 1e-3 ≤ |x| < 1e6 (plain layout whatever its shortest digits,
 * which lie within half a float32 step of it), found with float64 arithmetic alone, or false where that
 * cannot be sure: as its digits m and fraction length f (|x| = m / 10^f) in `parts`, so that a
 * writer can print it without making a string (plainTextFast makes the string).
 *
 * Candidates with f fraction digits are multiples of 10^-f, and "shortest" is the smallest f for which
 * the closest multiple reads back (candidates with fewer digits than the integer part only read back
 * when they equal the value: below 2^24 every integer is a float32). The closest multiple is
 * round(|x| × 10^f); the product is one correctly rounded float64 operation, so it is trusted only
 * when its fraction is further from one half than its rounding error (else a tie or too close to
 * call). The read-back is exact as in shortTextFast; powers of two and float32 half-way points are
 * left to the general path.
 */
export function plainFloatParts(bits: number, value: number, parts: Float64Array): boolean {
  const magnitude = bits & 0x7fffffff;
  const a = Math.abs(value);
  if (a < 1e-3 || a >= 1e6 || (magnitude & 0x7fffff) === 0) return false;
  for (let f = 0; f <= 12; f++) {
    const y = a * (POW10[f] as number);
    if (y >= 1e15) return false;
    const floor = Math.floor(y);
    const fraction = y - floor;
    if (Math.abs(fraction - 0.5) <= y * 2 ** -52 + 2 ** -60) return false;
    const m = fraction > 0.5 ? floor + 1 : floor;
    if (m === 0) continue;
    const x = m / (POW10[f] as number);
    if (x !== a) {
      const neighbour = x > a ? float32FromBits(magnitude + 1) : float32FromBits(magnitude - 1);
      if (x === (a + neighbour) / 2) return false;
      if (Math.fround(x) !== a) continue;
    }
    // The smallest f never ends in 0 (m / 10 would have read back one step earlier); if it did, give up.
    if (f > 0 && m % 10 === 0) return false;
    parts[0] = m;
    parts[1] = f;
    return true;
  }
  return false;
}

/** plainTextFast's parts (it never runs inside itself, and holds nothing between calls). */
const textParts = new Float64Array(2);

function plainTextFast(bits: number, value: number): string | null {
  if (!plainFloatParts(bits, value, textParts)) return null;
  const f = textParts[1] as number;
  const digits = String(textParts[0]);
  const sign = value < 0 ? '-' : '';
  if (f === 0) return `${sign}${digits}.0`;
  if (digits.length <= f) return `${sign}0.${'0'.repeat(f - digits.length)}${digits}`;
  return `${sign}${digits.slice(0, digits.length - f)}.${digits.slice(digits.length - f)}`;
}

/**
 * The canonical text of a finite non-zero float32 from one `toPrecision(9)` instead of one per length,
 * or null where that shortcut cannot be sure (then the general path decides).
 *
 * Nine digits always read back as the float32. The closest p-digit decimal of the value is that
 * 9-digit decimal rounded to p digits, except where its digits after the p-th are exactly 5 then
 * zeros (the value itself may lie on either side of the half, or be a tie the exact search rounds to
 * even): there it gives up. Each candidate m × 10^k is read back as the engine reads a decimal, one
 * correctly rounded multiplication or division of two exact float64s, so it is accepted exactly when
 * the general path's toPrecision(p) candidate is; float32 half-way points (double rounding), powers of
 * two (uneven gaps), 9-digit results and exponents beyond 10^±22 are left to the general path. The
 * accepted text then reads back by construction, so the general path's final check is not repeated.
 */
function shortTextFast(bits: number, value: number): string | null {
  const magnitude = bits & 0x7fffffff;
  if ((magnitude & 0x7fffff) === 0) return null;
  const a = Math.abs(value);
  const nine = a.toPrecision(9);
  // Parse `d.dddddddd`, `ddd.dddddd`, `0.000ddddddddd` or `d.dddddddde±n` into digits × 10^(lead − 8).
  let digits9 = 0;
  let significant = 0;
  let integerDigits = 0;
  let zerosAfterDot = 0;
  let dot = false;
  let i = 0;
  for (; i < nine.length; i++) {
    const c = nine.charCodeAt(i);
    if (c === 0x2e) {
      dot = true;
      continue;
    }
    if (c === 0x65) break;
    const d = c - 0x30;
    if (!dot) integerDigits++;
    if (significant === 0 && d === 0) {
      if (dot) zerosAfterDot++;
      continue;
    }
    digits9 = digits9 * 10 + d;
    significant++;
  }
  if (significant !== 9) return null;
  let lead = nine.charCodeAt(0) === 0x30 ? -(zerosAfterDot + 1) : integerDigits - 1;
  if (i < nine.length) lead += Number(nine.slice(i + 1));
  for (let p = 1; p < 9; p++) {
    const q = POW10[9 - p] as number;
    const rest = digits9 % q;
    if (rest * 2 === q) return null;
    let m = (digits9 - rest) / q;
    if (rest * 2 > q) m++;
    const k = lead - p + 1;
    if (k > 22 || k < -22) return null;
    const x = k >= 0 ? m * (POW10[k] as number) : m / (POW10[-k] as number);
    if (x !== a) {
      const neighbour = x > a ? (magnitude + 1 === 0x7f800000 ? 2 ** 128 : float32FromBits(magnitude + 1)) : float32FromBits(magnitude - 1);
      if (x === (a + neighbour) / 2) return null;
      if (Math.fround(x) !== a) continue;
    }
    const carried = m === (POW10[p] as number);
    let text = String(carried ? 1 : m);
    let end = text.length;
    while (end > 1 && text.charCodeAt(end - 1) === 0x30) end--;
    if (end < text.length) text = text.slice(0, end);
    return layout(value < 0, text, lead + 1 + (carried ? 1 : 0));
  }
  return null;
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
