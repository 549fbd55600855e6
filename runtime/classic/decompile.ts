/**
 * The script decompiler: a token stream to the one canonical text of a compiled script (the dialect is
 * written down in README.md, "Canonical script text"). pvfUtility's parser style with `\n` line ends,
 * links in link form, shortest round-trip floats with a `.`, `{N=…}` for tokens without a plain form.
 * Linear in the number of tokens (no recursion: any nesting depth is safe).
 */
import { PvfdocError } from '../errors.js';
import { invalidArchiveFile } from '../script/archive-error.js';
import { float32FromBits, plainFloatParts } from '../script/script-float.js';
import { MAX_DECOMPILED_UNITS, MAX_INDENT } from '../script/script-text-limits.js';
import { DecompileMemo, isPlainSection, type SectionInfo } from './decompile-memo.js';
import { ScriptTextWriter } from './script-text-writer.js';
import { TokenType, tokenOffset, type ScriptTokens } from './script-tokens.js';

export interface MissingLink {
  /** n_string table number. */
  table: number;
  key: string;
  /** Why no text was found. */
  reason: string;
}

interface DecompileContext {
  /** Archive and file named in errors. */
  archive: string;
  path: string;
  /** Number of strings in `stringtable.bin` (0 when it is missing). */
  stringCount: number;
  /** String i of `stringtable.bin` (0 ≤ i < stringCount). */
  string(index: number): string;
  /** The `.str` text of a link, or why there is none. */
  linkText(table: number, key: string): { text: string } | { missing: string };
  /** Why `stringCount` is 0 when `stringtable.bin` is absent (for the error message). */
  stringTableProblem?: string;
  /** Thrown as-is when a token needs a string and `stringtable.bin` is damaged. */
  stringTableError?: Error;
}

interface DecompiledScript {
  /** Canonical text (`\n` line ends). */
  text: string;
  /** Links printed with an empty text because their `.str` entry was not found (at most MAX_MISSING_LINKS). */
  missingLinks: MissingLink[];
}

const SCRIPT_HEADER = '#PVF_File';

/** missingLinks lists at most this many links per file. */
const MAX_MISSING_LINKS = 1000;

export { isPlainSection };

/** Whether a link key prints inside `<id::key`text`>`: non-empty, no backtick, `>`, tab or line break. */
export function isPlainLinkKey(key: string): boolean {
  if (key === '') return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x60 || c === 0x3e || c === 0x09 || c === 0x0d || c === 0x0a) return false;
  }
  return true;
}

/**
 * The per-read working memory of the decompiler, owned by one archive and lent to each read (reads are
 * synchronous): the output buffer, the tag pairing and the stack of open sections as typed arrays, so
 * a read allocates little more than its text.
 */
export class DecompileScratch {
  readonly writer = new ScriptTextWriter();
  /** Per token: the index of the matching closing tag (-1: none); for an opener, the opener below it. */
  match = new Int32Array(256);
  below = new Int32Array(256);
  /** Per section token: how it prints and pairs (other slots hold whatever an earlier read left). */
  sections: SectionInfo[] = [];
  /** Per tag name id: the innermost open section of that name (-1: none). */
  openByName = new Int32Array(256).fill(-1);
  /** A plain float's digits and fraction length (plainFloatParts). */
  readonly floatParts = new Float64Array(2);
  /** The stack of open sections (one slot per level): closing tag or -1, children, last child was a section, innermost closed end. */
  frameClose = new Int32Array(64);
  frameChildren = new Int32Array(64);
  frameAfterSection = new Uint8Array(64);
  frameEnclosing = new Int32Array(64);

  /** Drops the per-token arrays a very large file grew, so an archive does not keep them for good. */
  trim(): void {
    if (this.match.length <= KEPT_TOKENS) return;
    this.match = new Int32Array(KEPT_TOKENS);
    this.below = new Int32Array(KEPT_TOKENS);
    this.sections = [];
  }

  fitTokens(count: number): void {
    if (count <= this.match.length) return;
    const size = grownSize(this.match.length, count);
    this.match = new Int32Array(size);
    this.below = new Int32Array(size);
  }

  /** Grows the per-name stacks, keeping the ones open: a name first met in the middle of a file must not drop the sections opened before it. */
  fitNames(names: number): void {
    if (names <= this.openByName.length) return;
    const grown = new Int32Array(grownSize(this.openByName.length, names)).fill(-1);
    grown.set(this.openByName);
    this.openByName = grown;
  }

  fitFrames(depth: number): void {
    if (depth <= this.frameClose.length) return;
    const size = grownSize(this.frameClose.length, depth);
    const grow = <T extends Int32Array | Uint8Array>(old: T, made: T): T => {
      made.set(old);
      return made;
    };
    this.frameClose = grow(this.frameClose, new Int32Array(size));
    this.frameChildren = grow(this.frameChildren, new Int32Array(size));
    this.frameAfterSection = grow(this.frameAfterSection, new Uint8Array(size));
    this.frameEnclosing = grow(this.frameEnclosing, new Int32Array(size));
  }
}

/** Token capacity kept between reads (a few times a large real script). */
const KEPT_TOKENS = 1 << 16;

function grownSize(size: number, need: number): number {
  let next = size;
  while (next < need) next *= 2;
  return next;
}

/**
 * Decompiles a token stream (tokens already validated to types 2..10). `memo` (the archive version's)
 * keeps per-string and per-float work across files, `scratch` the working memory; without them, fresh
 * ones serve this file.
 */
export function decompileScript(tokens: ScriptTokens, context: DecompileContext, memo: DecompileMemo = new DecompileMemo(), scratch: DecompileScratch = new DecompileScratch()): DecompiledScript {
  const { count, types, values } = tokens;
  const missingLinks: MissingLink[] = [];

  const stringAt = (i: number): string => {
    const index = values[i] as number;
    if (index < 0 || index >= context.stringCount) {
      if (context.stringTableError) throw context.stringTableError;
      const why = context.stringCount === 0 && context.stringTableProblem ? context.stringTableProblem : `stringtable.bin has ${context.stringCount} strings`;
      throw invalidArchiveFile(context.archive, context.path, `token ${i} (type ${types[i]}) at byte offset ${tokenOffset(i)} refers to string ${index}, out of range: ${why}`, {
        offset: tokenOffset(i),
        stringIndex: index,
      });
    }
    return context.string(index);
  };

  // Closing tags: each `[/x]` closes the nearest open `[x]` before it (same name, exact). The open
  // sections of one name are a stack threaded through `below`.
  scratch.fitTokens(count);
  const { match, below, sections, floatParts } = scratch;
  match.fill(-1, 0, count);
  let paired = 0;
  try {
    for (; paired < count; paired++) {
      const i = paired;
      if (types[i] !== TokenType.Section) continue;
      const info = memo.section(values[i] as number, stringAt(i));
      sections[i] = info;
      if (info.name < 0) continue;
      scratch.fitNames(info.name + 1);
      const openByName = scratch.openByName;
      if (info.closes) {
        const opener = openByName[info.name] as number;
        if (opener >= 0) {
          match[opener] = i;
          openByName[info.name] = below[opener] as number;
        }
      } else {
        below[i] = openByName[info.name] as number;
        openByName[info.name] = i;
      }
    }
  } finally {
    // Leave every name's stack empty for the next read, also when a bad string index stopped this one.
    for (let i = 0; i < paired; i++) {
      if (types[i] !== TokenType.Section) continue;
      const name = (sections[i] as SectionInfo).name;
      if (name >= 0) scratch.openByName[name] = -1;
    }
  }

  const out = scratch.writer;
  out.start({
    maxUnits: MAX_DECOMPILED_UNITS,
    tooLarge: () =>
      new PvfdocError('RESPONSE_TOO_LARGE', `${context.archive}: ${context.path}: its decompiled text exceeds ${MAX_DECOMPILED_UNITS} characters`, {
        hint: 'This script is too large (or built to expand) to read through pvfdoc; open it with another tool.',
        data: { archive: context.archive, path: context.path, limit: MAX_DECOMPILED_UNITS },
      }),
  });
  out.text(SCRIPT_HEADER);
  out.ascii(0x0a);

  /** Writes the value at i and returns how many tokens it used (a link uses two). */
  const putValue = (i: number): number => {
    const type = types[i] as number;
    const value = values[i] as number;
    switch (type) {
      case TokenType.Int:
        out.int(value);
        return 1;
      case TokenType.IntEx:
        out.text('{3=');
        out.int(value);
        out.ascii(0x7d);
        return 1;
      case TokenType.Float: {
        // Most floats print plain: their digits go straight into the text (no string, no memo).
        const x = float32FromBits(value);
        if (x !== 0 && plainFloatParts(value, x, floatParts)) {
          out.plainFloat(x < 0, floatParts[0] as number, floatParts[1] as number);
          return 1;
        }
        const text = memo.float(value);
        if (text !== null) out.text(text);
        else {
          out.text('{4=');
          out.int(value);
          out.ascii(0x7d);
        }
        return 1;
      }
      case TokenType.String:
        out.quoted(stringAt(i));
        return 1;
      case TokenType.Command:
      case TokenType.CommandSeparator:
        out.text(type === TokenType.Command ? '{6=' : '{8=');
        out.quoted(stringAt(i));
        out.ascii(0x7d);
        return 1;
      case TokenType.LinkIndex: {
        if (i + 1 < count && types[i + 1] === TokenType.LinkKey) {
          const key = stringAt(i + 1);
          if (isPlainLinkKey(key)) {
            const found = context.linkText(value, key);
            let text = '';
            if ('text' in found) text = found.text;
            else if (missingLinks.length < MAX_MISSING_LINKS) missingLinks.push({ table: value, key, reason: found.missing });
            out.ascii(0x3c);
            out.int(value);
            out.text('::');
            out.text(key);
            out.quoted(text);
            out.ascii(0x3e);
            return 2;
          }
        }
        out.text('{9=');
        out.int(value);
        out.ascii(0x7d);
        return 1;
      }
      case TokenType.LinkKey:
        out.text('{10=');
        out.quoted(stringAt(i));
        out.ascii(0x7d);
        return 1;
      default:
        // Types are validated when the tokens are read; keep the value lossless anyway.
        out.ascii(0x7b);
        out.int(type);
        out.ascii(0x3d);
        out.int(value);
        out.ascii(0x7d);
        return 1;
    }
  };

  // The open sections, innermost at `top` (its depth is top + 1). A frame's "enclosing" is the
  // closing tag of the innermost closed section at or below it (the token count when none): where a
  // section without a closing tag has to end at the latest.
  let top = -1;
  const lineStart = (depth: number): void => out.lineStart(Math.min(depth, MAX_INDENT));
  const enclosingClose = (): number => (top >= 0 ? (scratch.frameEnclosing[top] as number) : count);
  const endFrame = (): void => {
    top--;
    if (top < 0) {
      out.ascii(0x0a);
      return;
    }
    scratch.frameChildren[top] = (scratch.frameChildren[top] as number) + 1;
    scratch.frameAfterSection[top] = 1;
  };

  let i = 0;
  while (i < count) {
    const type = types[i] as number;
    const topClose = top >= 0 ? (scratch.frameClose[top] as number) : -2;
    if (top >= 0 && topClose < 0 && (type === TokenType.Section || i === enclosingClose())) {
      endFrame();
      continue;
    }
    if (topClose === i) {
      lineStart(top);
      out.text((sections[i] as SectionInfo).text);
      endFrame();
      i++;
      continue;
    }
    if (type === TokenType.Section) {
      const depth = top + 2;
      lineStart(depth - 1);
      out.text((sections[i] as SectionInfo).text);
      const m = match[i] as number;
      const enclosing = enclosingClose();
      const close = m > i && m < enclosing ? m : -1;
      scratch.fitFrames(depth);
      top++;
      scratch.frameClose[top] = close;
      scratch.frameChildren[top] = 0;
      scratch.frameAfterSection[top] = 0;
      scratch.frameEnclosing[top] = close >= 0 ? close : enclosing;
      i++;
      continue;
    }
    if (top < 0) {
      out.ascii(0x0a);
    } else {
      const sameLine = (scratch.frameChildren[top] as number) > 0 && scratch.frameAfterSection[top] === 0 && (type === TokenType.Int || type === TokenType.Float);
      if (sameLine) out.ascii(0x09);
      else lineStart(top + 1);
      scratch.frameChildren[top] = (scratch.frameChildren[top] as number) + 1;
      scratch.frameAfterSection[top] = 0;
    }
    i += putValue(i);
  }
  while (top >= 0) endFrame();
  scratch.trim();
  // Strings were copied with CRLF and CR as `\n` (pvfUtility stores multi-line strings with CRLF): the canonical text has `\n` only.
  return { text: out.finish(), missingLinks };
}
