/**
 * The decompiler's output buffer: UTF-16 code units written into one growing array and turned into a
 * string once, at the end. A random read decompiles a few hundred tokens; as a list of string pieces
 * joined at the end, the pieces, the join and the integer strings were half of the read (and most of
 * its garbage, which is what the young-generation pauses on slow reads are made of).
 *
 * Owned by one archive and reused by every read of it (reads are synchronous, so never shared by two
 * at once). Strings copied in have CRLF and lone CR turned into `\n` on the way (normalizeText's rule:
 * a CR only ever comes from a string, and a string's copy never ends between a CR and its LF).
 */
import { PvfdocError } from '../errors.js';

/** Capacity kept between reads; a larger buffer made for one big file is dropped after it. */
const KEPT_UNITS = 1 << 16;

export interface TextLimit {
  /** Most code units a text may have. */
  maxUnits: number;
  /** The error thrown when a text would pass maxUnits. */
  tooLarge(): PvfdocError;
}

export class ScriptTextWriter {
  private units = new Uint16Array(KEPT_UNITS);
  private length = 0;
  /** Units that may be written without a check: the buffer's length or the limit, whichever is less. */
  private end = KEPT_UNITS;
  /** Some unit is above 0xFF: the text needs a two-byte string. */
  private wide = false;
  private limit: TextLimit = { maxUnits: Infinity, tooLarge: () => new PvfdocError('RESPONSE_TOO_LARGE', 'text too large') };

  /** Starts a new text bounded by `limit`. */
  start(limit: TextLimit): void {
    this.length = 0;
    this.wide = false;
    this.limit = limit;
    this.end = Math.min(this.units.length, limit.maxUnits);
  }

  /** Room for `n` more units (grows the buffer, or throws the limit's error). */
  private room(n: number): void {
    const need = this.length + n;
    if (need <= this.end) return;
    if (need > this.limit.maxUnits) throw this.limit.tooLarge();
    if (need > this.units.length) {
      let size = this.units.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint16Array(Math.min(size, this.limit.maxUnits));
      grown.set(this.units.subarray(0, this.length));
      this.units = grown;
    }
    this.end = Math.min(this.units.length, this.limit.maxUnits);
  }

  /** One ASCII code unit. */
  ascii(unit: number): void {
    if (this.length === this.end) this.room(1);
    this.units[this.length++] = unit;
  }

  /** `\n` and `depth` tabs. */
  lineStart(depth: number): void {
    this.room(depth + 1);
    const units = this.units;
    let at = this.length;
    units[at++] = 0x0a;
    for (let d = 0; d < depth; d++) units[at++] = 0x09;
    this.length = at;
  }

  /** A string as it is (CR normalised). */
  text(s: string): void {
    this.copy(s, false);
  }

  /** A string between backticks, each backtick inside doubled (the dialect's only escape). */
  quoted(s: string): void {
    this.ascii(0x60);
    this.copy(s, true);
    this.ascii(0x60);
  }

  private copy(s: string, doubleBackticks: boolean): void {
    const n = s.length;
    this.room(n);
    let units = this.units;
    let at = this.length;
    let wide = this.wide;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c > 0x60) {
        if (c > 0xff) wide = true;
      } else if (c === 0x0d) {
        c = 0x0a;
        if (s.charCodeAt(i + 1) === 0x0a) i++;
      } else if (c === 0x60 && doubleBackticks) {
        // One more unit than counted: make room for it (and for the rest of the string).
        this.length = at;
        this.room(n - i + 1);
        units = this.units;
        units[at++] = 0x60;
      }
      units[at++] = c;
    }
    this.length = at;
    this.wide = wide;
  }

  /** The decimal digits of an int32. */
  int(value: number): void {
    const negative = value < 0;
    // -2^31 has no positive int32: work on the unsigned magnitude.
    let v = negative ? -value >>> 0 : value;
    let digits = 1;
    for (let p = 10; p <= v && digits < 10; p *= 10) digits++;
    const n = digits + (negative ? 1 : 0);
    this.room(n);
    const units = this.units;
    const at = this.length;
    if (negative) units[at] = 0x2d;
    let end = at + n;
    this.length = end;
    do {
      const q = Math.floor(v / 10);
      units[--end] = 0x30 + (v - q * 10);
      v = q;
    } while (v > 0);
  }

  /**
   * A float in plain layout from its digits: |x| = m / 10^f (m a positive integer below 10^15, f ≥ 0;
   * plainFloatParts): `-12.5`, `0.005`, `3.0`, as formatScriptFloat writes it, without a string.
   */
  plainFloat(negative: boolean, m: number, f: number): void {
    let n = 1;
    for (let p = 10; p <= m; p *= 10) n++;
    const whole = f === 0 ? n : Math.max(n - f, 1);
    const fraction = f === 0 ? 1 : f;
    this.room((negative ? 1 : 0) + whole + 1 + fraction);
    const units = this.units;
    let at = this.length;
    if (negative) units[at++] = 0x2d;
    const dot = at + whole;
    const end = dot + 1 + fraction;
    // Digits from the last: fraction digits (zeros where m is short), the dot, the whole part.
    let v = m;
    let i = end - 1;
    if (f === 0) units[i--] = 0x30;
    for (; i > dot; i--) {
      const q = Math.floor(v / 10);
      units[i] = 0x30 + (v - q * 10);
      v = q;
    }
    units[dot] = 0x2e;
    for (i = dot - 1; i >= at; i--) {
      const q = Math.floor(v / 10);
      units[i] = 0x30 + (v - q * 10);
      v = q;
    }
    this.length = end;
  }

  /** Units written so far. */
  get size(): number {
    return this.length;
  }

  /** The text written; the buffer is ready for the next text. */
  finish(): string {
    const n = this.length;
    const units = this.units;
    let text: string;
    if (this.wide) {
      text = Buffer.from(units.buffer, units.byteOffset, n * 2).toString('utf16le');
    } else {
      // Every unit fits a byte: a one-byte string, half the memory of the two-byte one.
      const bytes = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) bytes[i] = units[i] as number;
      text = bytes.toString('latin1', 0, n);
    }
    if (units.length > KEPT_UNITS) this.units = new Uint16Array(KEPT_UNITS);
    this.length = 0;
    this.end = Math.min(this.units.length, this.limit.maxUnits);
    return text;
  }
}
