/**
 * Number canonicalisation of the script lexer (rule-format §3.2), reproducing the Go `strconv` calls
 * pvfine makes on a bare word:
 *
 * - type 0 when `ParseInt(word, 10, 32)` accepts it, re-formatted in base 10 (`+5` → `5`, `007` → `7`);
 * - else type 2 when `ParseFloat(word, 32)` accepts it without error, re-formatted as
 *   `FormatFloat(f, 'g', -1, 32)`: the shortest decimal that reads back as the same float32
 *   (`1.50` → `1.5`, `8000.0` → `8000`, `1e6` → `1e+06`, `inf` → `+Inf`);
 * - else type 3, the word as written.
 *
 * Go quirks kept on purpose: an int32 overflow such as `3000000000` is not an integer but a float
 * (`3e+09`); a float32 overflow such as `1e39` is a range error and so stays a type-3 word; `_` digit
 * separators and hex floats (`0x1p-2`) are floats; `inf`, `infinity` and `nan` (any case) parse.
 *
 * Reading a decimal into a float32 is done exactly with BigInt arithmetic. Going through a float64
 * first (`Math.fround(Number(s))`) rounds twice and is wrong for decimals near a float32 half-way point.
 *
 * Formatting has a fast path (shortestDigitsFast): the engine's correctly rounded `toPrecision` and
 * `Number` in a loop, falling back to the exact BigInt search in the few cases where they can differ
 * from it (ties, a float64 landing on a float32 half-way point, the uneven gaps at powers of two).
 * Reads decompile many floats, and the exact search is about ten times slower.
 */

type WordType = 0 | 2 | 3;

/** The token type and canonical value of a bare word. */
export function canonicalWord(raw: string): { type: WordType; value: string } {
  // Most words of real scripts are short plain integers, already canonical: no pattern, no re-formatting.
  if (isPlainInt(raw)) return { type: 0, value: raw };
  const int = parseInt32(raw);
  if (int !== null) return { type: 0, value: String(int) };
  const float = parseFloat32(raw);
  if (float !== null) return { type: 2, value: formatFloat32(float) };
  return { type: 3, value: raw };
}

/**
 * 1–9 ASCII digits without a leading zero (or `0` itself), optionally after `-` (not `-0`): in int32
 * range and written as `strconv.FormatInt` writes it.
 */
export function isPlainInt(s: string): boolean {
  return isPlainIntAt(s, 0, s.length);
}

/** isPlainInt of text[start … end), read in place. */
export function isPlainIntAt(text: string, start: number, end: number): boolean {
  const first = end > start && text.charCodeAt(start) === 0x2d /* - */ ? start + 1 : start;
  const digits = end - first;
  if (digits < 1 || digits > 9) return false;
  const lead = text.charCodeAt(first);
  if (lead === 0x30 /* 0 */) return digits === 1 && first === start;
  for (let i = first; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

const INT_PATTERN = /^[+-]?[0-9]+$/;

/** Go `strconv.ParseInt(s, 10, 32)`: an optional sign and ASCII digits, in int32 range; else null. */
export function parseInt32(s: string): number | null {
  if (!INT_PATTERN.test(s)) return null;
  // More than 10 significant digits is out of range; otherwise a double holds the value exactly.
  if (s.replace(/^[+-]?0*/, '').length > 10) return null;
  const value = Number(s) + 0; // `+ 0` turns -0 into 0
  return value >= -2147483648 && value <= 2147483647 ? value : null;
}

/**
 * Go `strconv.ParseFloat(s, 32)`: the float32 value (as a number), or null on a syntax error or an
 * overflow (Go's range error; an underflow is not an error and gives ±0).
 */
export function parseFloat32(s: string): number | null {
  if (INFINITY_PATTERN.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (NAN_PATTERN.test(s)) return NaN;
  const parsed = readFloat(s);
  if (parsed === null) return null;
  return parsed.hex ? hexToFloat32(parsed) : decimalToFloat32(parsed.neg, parsed.digits, parsed.dp);
}

/**
 * Go `strconv.FormatFloat(f, 'g', -1, 32)` for a float32 value: shortest round-trip digits, `%e` form
 * when the decimal exponent is below -4 or at least 6 (with a two-digit exponent), else `%f` form.
 */
export function formatFloat32(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const f = Math.fround(value);
  const neg = f < 0 || Object.is(f, -0);
  if (f === 0) return neg ? '-0' : '0';
  const { digits, dp } = shortestFloat32Digits(Math.abs(f));
  return (neg ? '-' : '') + formatG(digits, dp);
}

/** formatFloat32 through the exact search only: the fallback, and what the fast path is tested against. */
export function formatFloat32Exact(value: number): string {
  if (!Number.isFinite(value) || value === 0) return formatFloat32(value);
  const f = Math.fround(value);
  const { digits, dp } = shortestDigits(Math.abs(f));
  return (f < 0 ? '-' : '') + formatG(digits, dp);
}

/**
 * Shortest decimal digits that read back as `a` (a positive finite float32), closest to it, ties to an
 * even last digit (what Go's Ryu-based shortest formatting yields). Value = 0.digits × 10^dp, digits
 * without trailing zeros.
 */
export function shortestFloat32Digits(a: number): { digits: string; dp: number } {
  return shortestDigitsFast(a) ?? shortestDigits(a);
}

/**
 * Whether a plain decimal literal (digits, one optional `.`, optional `e±n`: what the formatters here
 * write) reads as exactly the float32 `value` (finite, non-zero) under Go's ParseFloat(s, 32).
 */
export function readsAsFloat32(decimal: string, value: number): boolean {
  const x = Number(decimal);
  if (onFloat32HalfWay(x, value)) return parseFloat32(decimal) === value;
  return Math.fround(x) === value;
}

// --- Internal helpers ---

const INFINITY_PATTERN = /^[+-]?(?:inf|infinity)$/i;
const NAN_PATTERN = /^nan$/i;

interface ReadFloat {
  neg: boolean;
  hex: boolean;
  /** Significant digits (leading zeros dropped), decimal or lower-case hex. */
  digits: string;
  /** Value = 0.digits × 10^dp (decimal) or × 2^dp with dp counted in bits (hex), as Go's readFloat. */
  dp: number;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isHexLetter(c: string): boolean {
  return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/** Go's `readFloat`, requiring the whole string to be consumed (as `ParseFloat` does). */
function readFloat(s: string): ReadFloat | null {
  const n = s.length;
  let i = 0;
  if (n === 0) return null;
  let neg = false;
  if (s[i] === '+') i++;
  else if (s[i] === '-') {
    neg = true;
    i++;
  }
  let hex = false;
  if (i + 2 < n && s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X')) {
    hex = true;
    i += 2;
  }
  let underscores = false;
  let sawDot = false;
  let sawDigits = false;
  let nd = 0;
  let dp = 0;
  let digits = '';
  for (; i < n; i++) {
    const c = s[i] as string;
    if (c === '_') {
      underscores = true;
      continue;
    }
    if (c === '.') {
      if (sawDot) break;
      sawDot = true;
      dp = nd;
      continue;
    }
    if (isDigit(c)) {
      sawDigits = true;
      if (c === '0' && nd === 0) {
        dp--;
        continue;
      }
      nd++;
      digits += c;
      continue;
    }
    if (hex && isHexLetter(c)) {
      sawDigits = true;
      nd++;
      digits += c.toLowerCase();
      continue;
    }
    break;
  }
  if (!sawDigits) return null;
  if (!sawDot) dp = nd;
  if (hex) dp *= 4;
  const expChar = hex ? 'p' : 'e';
  if (i < n && (s[i] as string).toLowerCase() === expChar) {
    i++;
    if (i >= n) return null;
    let sign = 1;
    if (s[i] === '+') i++;
    else if (s[i] === '-') {
      i++;
      sign = -1;
    }
    if (i >= n || !isDigit(s[i] as string)) return null;
    let e = 0;
    for (; i < n && (isDigit(s[i] as string) || s[i] === '_'); i++) {
      if (s[i] === '_') {
        underscores = true;
        continue;
      }
      // Go stops accumulating here too: such exponents overflow or underflow anyway.
      if (e < 10000) e = e * 10 + (s.charCodeAt(i) - 48);
    }
    dp += e * sign;
  } else if (hex) {
    return null;
  }
  if (i !== n) return null;
  if (underscores && !underscoreOK(s)) return null;
  return { neg, hex, digits, dp };
}

/** Go's `underscoreOK`: `_` only between digits, or between a base prefix and a digit. */
function underscoreOK(text: string): boolean {
  let s = text;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  const prefix = (s[1] ?? '').toLowerCase();
  if (s.length >= 2 && s[0] === '0' && (prefix === 'b' || prefix === 'o' || prefix === 'x')) {
    i = 2;
    saw = '0';
    hex = prefix === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i] as string;
    if (isDigit(c) || (hex && isHexLetter(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

function signedZero(neg: boolean): number {
  return neg ? -0 : 0;
}

/** Exact float32 of 0.digits × 10^dp (digits without leading zeros); null on overflow. */
function decimalToFloat32(neg: boolean, digits: string, dp: number): number | null {
  if (digits === '') return signedZero(neg);
  // The value lies in [10^(dp-1), 10^dp): ≥ 1e39 overflows, < 1e-46 (below 2^-150) rounds to zero.
  if (dp > 39) return null;
  if (dp < -45) return signedZero(neg);
  const kept = stickyDigits(digits, 200);
  const k = dp - kept.length;
  const mantissa = BigInt(kept);
  return k >= 0 ? roundToFloat32(neg, mantissa * 10n ** BigInt(k), 1n) : roundToFloat32(neg, mantissa, 10n ** BigInt(-k));
}

/** Exact float32 of hex digits × 2^(dp - 4·digits); null on overflow. */
function hexToFloat32({ neg, digits, dp }: ReadFloat): number | null {
  if (digits === '') return signedZero(neg);
  const kept = stickyDigits(digits, 64);
  const mantissa = BigInt(`0x${kept}`);
  const shift = dp - 4 * kept.length;
  const bits = bitLength(mantissa);
  if (bits - 1 + shift >= 128) return null;
  if (bits + shift <= -150) return signedZero(neg);
  return shift >= 0 ? roundToFloat32(neg, mantissa << BigInt(shift), 1n) : roundToFloat32(neg, mantissa, 1n << BigInt(-shift));
}

/**
 * At most `limit` leading digits, plus a final 1 when a dropped digit was not zero. A float32 half-way
 * point has far fewer significant digits (at most 105 decimal, 7 hex), so the rounding of
 * 0.digits × base^dp is unchanged, and a pathological kilobyte-long number stays cheap.
 */
function stickyDigits(digits: string, limit: number): string {
  if (digits.length <= limit) return digits;
  return digits.slice(0, limit) + (/[1-9a-f]/.test(digits.slice(limit)) ? '1' : '');
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * num/den (both > 0) rounded to float32 with IEEE round-half-even, subnormals included; null when it
 * rounds to infinity. The result is exact in a float64.
 */
function roundToFloat32(neg: boolean, num: bigint, den: bigint): number | null {
  // Pick s so that q = floor(num·2^s/den) has 24 bits; cap s at 149 (the subnormal exponent).
  let s = 23 - (bitLength(num) - bitLength(den));
  let [q, r, d] = divideScaled(num, den, s);
  if (q < 1n << 23n) {
    s++;
    [q, r, d] = divideScaled(num, den, s);
  }
  if (s > 149) {
    s = 149;
    [q, r, d] = divideScaled(num, den, s);
  }
  const twice = r * 2n;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  const result = Number(q) * 2 ** -s;
  if (result >= 2 ** 128) return null;
  return neg ? -result : result;
}

/** [floor(num·2^s/den), remainder, the divisor the remainder is relative to]. */
function divideScaled(num: bigint, den: bigint, s: number): [bigint, bigint, bigint] {
  if (s >= 0) {
    const scaled = num << BigInt(s);
    const q = scaled / den;
    return [q, scaled - q * den, den];
  }
  const divisor = den << BigInt(-s);
  const q = num / divisor;
  return [q, num - q * divisor, divisor];
}

const float32Scratch = new Float32Array(1);
const float32BitsScratch = new Uint32Array(float32Scratch.buffer);

/** The float32 `bits` apart from `a` (a positive float32) in bit order; ±Infinity past the ends. */
function float32Step(a: number, step: number): number {
  float32Scratch[0] = a;
  float32BitsScratch[0] = (float32BitsScratch[0] as number) + step;
  return float32Scratch[0] as number;
}

/**
 * Whether the float64 `x` is exactly half-way between the float32 `value` and a neighbour: only there
 * can `Math.fround(x)` differ from rounding the decimal `x` came from straight to float32 (every
 * half-way point is a float64, so a decimal and its float64 lie on the same side of any other).
 */
function onFloat32HalfWay(x: number, value: number): boolean {
  const a = Math.abs(value);
  const ax = Math.abs(x);
  if (ax === a || Math.sign(x) !== Math.sign(value)) return false;
  const next = ax > a ? float32Step(a, 1) : float32Step(a, -1);
  // Past the largest float32 the half-way point is to 2^128.
  const neighbour = next === Infinity ? 2 ** 128 : next;
  return ax === (a + neighbour) / 2;
}

/**
 * shortestDigits through the engine's correctly rounded float64 ↔ decimal conversions, or null where
 * they may disagree with it. For each length p the candidate is `a.toPrecision(p)` (the closest p-digit
 * decimal: `a` is exact in a float64); it is accepted when it reads back as `a`. Falls back to the
 * exact search when (1) a candidate's float64 is a float32 half-way point (double rounding), (2) `a`
 * is a power of two and a candidate fails (the gap below is half the gap above, so the farther p-digit
 * neighbour may read back when the closer one does not), (3) the accepted candidate may be a tie
 * (toPrecision rounds half up, the exact search to even).
 */
function shortestDigitsFast(a: number): { digits: string; dp: number } | null {
  float32Scratch[0] = a;
  const powerOfTwo = ((float32BitsScratch[0] as number) & 0x7fffff) === 0;
  for (let p = 1; p <= 9; p++) {
    const text = a.toPrecision(p);
    const x = Number(text);
    if (onFloat32HalfWay(x, a)) return null;
    if (Math.fround(x) !== a) {
      if (powerOfTwo) return null;
      continue;
    }
    if (mayBeTie(a, p)) return null;
    return digitsOf(text);
  }
  return null;
}

/** Whether `a`'s decimal expansion may end with a 5 right after its first p digits (a rounding tie). */
function mayBeTie(a: number, p: number): boolean {
  const longer = a.toPrecision(p + 1);
  const e = longer.indexOf('e');
  const last = longer.charCodeAt((e < 0 ? longer.length : e) - 1);
  return last === 0x35 && Number(longer) === a;
}

/** Digits (no trailing zeros) and dp of a positive toPrecision text (`12.5`, `0.0013`, `1.5e+21`). */
function digitsOf(text: string): { digits: string; dp: number } {
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const integer = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const all = dot < 0 ? mantissa : integer + mantissa.slice(dot + 1);
  let start = 0;
  while (start < all.length - 1 && all.charCodeAt(start) === 0x30) start++;
  return { digits: stripTrailingZeros(all.slice(start)), dp: integer.length - start + exponent };
}

/** The exact search behind shortestFloat32Digits (BigInt arithmetic). */
function shortestDigits(a: number): { digits: string; dp: number } {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, a);
  const bits = view.getUint32(0);
  const biased = (bits >>> 23) & 0xff;
  const fraction = bits & 0x7fffff;
  const mantissa = BigInt(biased === 0 ? fraction : fraction | 0x800000);
  const exponent = biased === 0 ? -149 : biased - 150;
  let exact: string;
  let dp: number;
  if (exponent >= 0) {
    exact = (mantissa << BigInt(exponent)).toString();
    dp = exact.length;
  } else {
    exact = (mantissa * 5n ** BigInt(-exponent)).toString();
    dp = exact.length + exponent;
  }
  exact = stripTrailingZeros(exact);
  for (let p = 1; p < exact.length; p++) {
    const low = exact.slice(0, p);
    const rest = exact.slice(p);
    const highValue = (BigInt(low) + 1n).toString();
    const high = { digits: highValue, dp: highValue.length > low.length ? dp + 1 : dp };
    const lowOk = decimalToFloat32(false, low, dp) === a;
    const highOk = decimalToFloat32(false, high.digits, high.dp) === a;
    if (!lowOk && !highOk) continue;
    let useHigh = highOk;
    if (lowOk && highOk) {
      const half = compareWithHalf(rest);
      useHigh = half > 0 || (half === 0 && Number(low[low.length - 1]) % 2 === 1);
    }
    const chosen = useHigh ? high : { digits: low, dp };
    return { digits: stripTrailingZeros(chosen.digits), dp: chosen.dp };
  }
  return { digits: exact, dp };
}

function stripTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 1 && digits[end - 1] === '0') end--;
  return digits.slice(0, end);
}

/** Sign of 0.rest − 0.5 for a non-empty digit string without trailing zeros. */
function compareWithHalf(rest: string): number {
  const first = rest[0] as string;
  if (first !== '5') return first > '5' ? 1 : -1;
  return rest.length === 1 ? 0 : 1;
}

/** Go's `%g` layout of shortest digits (precision 6 decides between `%e` and `%f`). */
function formatG(digits: string, dp: number): string {
  const exp = dp - 1;
  if (exp < -4 || exp >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${magnitude < 10 ? '0' : ''}${magnitude}`;
  }
  const integer = dp > 0 ? digits.slice(0, dp).padEnd(dp, '0') : '0';
  const fraction = dp >= 0 ? digits.slice(dp) : '0'.repeat(-dp) + digits;
  return fraction === '' ? integer : `${integer}.${fraction}`;
}
