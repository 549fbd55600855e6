/**
 * What the decompiler works out once per archive version rather than once per token: how each
 * section string of `stringtable.bin` prints and which tag name it opens or closes, and the text of
 * float bit patterns. A random read decompiles a few hundred tokens, and without these every section
 * token costs two slices, a regex and a map lookup by string, and every float a digit search. Owned
 * by one archive version (whose strings never change); the float part is bounded.
 */
import { formatScriptFloat } from '../script/script-float.js';

/** How one section string prints and pairs. */
export interface SectionInfo {
  /** The section as printed: itself, or `{5=`…`}`. */
  text: string;
  /** Tag name id (same id for `[x]` and `[/x]`), or -1 when the string is no tag. */
  name: number;
  /** `[/x]`: it closes a tag. */
  closes: boolean;
}

/**
 * Float texts are kept in a direct-mapped table of this many slots (a power of two): a new value only
 * overwrites its slot, so the memo never grows, rehashes or clears, and a miss costs no more than the
 * formatting it has to do anyway. Enough for the repeated values of real scripts.
 */
const FLOAT_SLOTS_LOG2 = 13;

/** A string in backticks; a backtick inside is doubled (the only escape of the dialect). */
function quoteScriptString(value: string): string {
  return `\`${value.includes('`') ? value.replaceAll('`', '``') : value}\``;
}

/** Whether a section string prints as itself: `[`…`]` with no `]`, tab or line break inside. */
export function isPlainSection(value: string): boolean {
  if (value.length < 2 || value.charCodeAt(0) !== 0x5b || value.charCodeAt(value.length - 1) !== 0x5d) return false;
  for (let i = 1; i < value.length - 1; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x5d || c === 0x09 || c === 0x0d || c === 0x0a) return false;
  }
  return true;
}

export class DecompileMemo {
  private readonly sections = new Map<number, SectionInfo>();
  private readonly names = new Map<string, number>();
  private readonly floatBits = new Int32Array(1 << FLOAT_SLOTS_LOG2);
  /** Text of the value in floatBits at the same slot; undefined for a slot never filled. */
  private readonly floatTexts = new Array<string | null | undefined>(1 << FLOAT_SLOTS_LOG2).fill(undefined);

  /** Section string number `index` (whose text is `s`). */
  section(index: number, s: string): SectionInfo {
    let info = this.sections.get(index);
    if (info === undefined) {
      info = { text: isPlainSection(s) ? s : `{5=${quoteScriptString(s)}}`, name: -1, closes: false };
      if (s.length >= 3 && s.charCodeAt(0) === 0x5b && s.charCodeAt(s.length - 1) === 0x5d) {
        info.closes = s.charCodeAt(1) === 0x2f;
        const name = info.closes ? s.slice(2, -1) : s.slice(1, -1);
        let id = this.names.get(name);
        if (id === undefined) this.names.set(name, (id = this.names.size));
        info.name = id;
      }
      this.sections.set(index, info);
    }
    return info;
  }

  /** formatScriptFloat of an int32 bit pattern (null: only `{4=bits}` is exact). */
  float(bits: number): string | null {
    // Fibonacci hashing: the top bits of the product spread nearby bit patterns over the table.
    const slot = Math.imul(bits, 0x9e3779b1) >>> (32 - FLOAT_SLOTS_LOG2);
    const held = this.floatTexts[slot];
    if (held !== undefined && this.floatBits[slot] === bits) return held;
    const text = formatScriptFloat(bits);
    this.floatBits[slot] = bits;
    this.floatTexts[slot] = text;
    return text;
  }
}
