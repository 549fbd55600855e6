/**
 * The script decompiler: a token stream to the one canonical text of a compiled script (the dialect is
 * written down in README.md, "Canonical script text"). pvfUtility's parser style with `\n` line ends,
 * links in link form, shortest round-trip floats with a `.`, `{N=…}` for tokens without a plain form.
 * Linear in the number of tokens (no recursion: any nesting depth is safe).
 */
import { normalizeText } from '../script/normalize-text.js';
import { PvfdocError } from '../errors.js';
import { invalidArchiveFile } from '../script/archive-error.js';
import { MAX_DECOMPILED_UNITS, MAX_INDENT } from '../script/script-text-limits.js';
import { DecompileMemo, isPlainSection, type SectionInfo } from './decompile-memo.js';
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

interface Frame {
  depth: number;
  /** Token index of the matching closing tag, or -1 for a section that ends at the next section token. */
  close: number;
  children: number;
  /** The last child was a nested section (the next value starts a new line). */
  afterSection: boolean;
}

/**
 * Decompiles a token stream (tokens already validated to types 2..10). `memo` (the archive version's)
 * keeps per-string and per-float work across files; without one, a fresh memo serves this file.
 *
 * The text is built as a list of pieces joined once: a piece per string, number and separator, so a
 * token costs no intermediate string (random reads are dominated by this loop and its garbage).
 */
export function decompileScript(tokens: ScriptTokens, context: DecompileContext, memo: DecompileMemo = new DecompileMemo()): DecompiledScript {
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

  // Closing tags: each `[/x]` closes the nearest open `[x]` before it (same name, exact).
  const match = new Int32Array(count).fill(-1);
  const sections: (SectionInfo | undefined)[] = new Array<SectionInfo | undefined>(count);
  const open = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    if (types[i] !== TokenType.Section) continue;
    const info = memo.section(values[i] as number, stringAt(i));
    sections[i] = info;
    if (info.name < 0) continue;
    if (info.closes) {
      const opener = open.get(info.name)?.pop();
      if (opener !== undefined) match[opener] = i;
    } else {
      let stack = open.get(info.name);
      if (!stack) open.set(info.name, (stack = []));
      stack.push(i);
    }
  }

  const out: string[] = [SCRIPT_HEADER, '\n'];
  let units = SCRIPT_HEADER.length + 1;
  const put = (piece: string): void => {
    units += piece.length;
    out.push(piece);
  };
  const checkSize = (): void => {
    if (units > MAX_DECOMPILED_UNITS) {
      throw new PvfdocError('RESPONSE_TOO_LARGE', `${context.archive}: ${context.path}: its decompiled text exceeds ${MAX_DECOMPILED_UNITS} characters`, {
        hint: 'This script is too large (or built to expand) to read through pvfdoc; open it with another tool.',
        data: { archive: context.archive, path: context.path, limit: MAX_DECOMPILED_UNITS },
      });
    }
  };
  const putQuoted = (value: string): void => {
    put('`');
    put(value.includes('`') ? value.replaceAll('`', '``') : value);
    put('`');
  };

  /** Puts the value at i and returns how many tokens it used (a link uses two). */
  const putValue = (i: number): number => {
    const type = types[i] as number;
    const value = values[i] as number;
    switch (type) {
      case TokenType.Int:
        put(memo.int(value));
        return 1;
      case TokenType.IntEx:
        put(`{3=${value}}`);
        return 1;
      case TokenType.Float:
        put(memo.float(value) ?? `{4=${value}}`);
        return 1;
      case TokenType.String:
        put(memo.quoted(value, stringAt(i)));
        return 1;
      case TokenType.Command:
      case TokenType.CommandSeparator:
        put(type === TokenType.Command ? '{6=' : '{8=');
        put(memo.quoted(value, stringAt(i)));
        put('}');
        return 1;
      case TokenType.LinkIndex: {
        if (i + 1 < count && types[i + 1] === TokenType.LinkKey) {
          const key = stringAt(i + 1);
          if (isPlainLinkKey(key)) {
            const found = context.linkText(value, key);
            let text = '';
            if ('text' in found) text = found.text;
            else if (missingLinks.length < MAX_MISSING_LINKS) missingLinks.push({ table: value, key, reason: found.missing });
            put(`<${value}::`);
            put(key);
            putQuoted(text);
            put('>');
            return 2;
          }
        }
        put(`{9=${value}}`);
        return 1;
      }
      case TokenType.LinkKey:
        put('{10=');
        put(memo.quoted(value, stringAt(i)));
        put('}');
        return 1;
      default:
        // Types are validated when the tokens are read; keep the value lossless anyway.
        put(`{${type}=${value}}`);
        return 1;
    }
  };

  // A line break and its indent are one piece: fewer pieces to join (the join is a large part of a read).
  const lineStarts: string[] = ['\n'];
  const lineStart = (depth: number): string => {
    const d = Math.min(depth, MAX_INDENT);
    while (lineStarts.length <= d) lineStarts.push(`${lineStarts[lineStarts.length - 1]}\t`);
    return lineStarts[d] as string;
  };
  const frames: Frame[] = [];
  /** End of the innermost closed section (its closing tag's index), or the token count. */
  const enclosingClose = (): number => {
    for (let f = frames.length - 1; f >= 0; f--) {
      const close = (frames[f] as Frame).close;
      if (close >= 0) return close;
    }
    return count;
  };
  const endFrame = (): void => {
    frames.pop();
    const parent = frames[frames.length - 1];
    if (!parent) {
      put('\n');
      return;
    }
    parent.children++;
    parent.afterSection = true;
  };

  let i = 0;
  while (i < count) {
    const top = frames[frames.length - 1];
    const type = types[i] as number;
    if (top && top.close < 0 && (type === TokenType.Section || i === enclosingClose())) {
      endFrame();
      continue;
    }
    if (top && top.close === i) {
      put(lineStart(top.depth - 1));
      put((sections[i] as SectionInfo).text);
      checkSize();
      endFrame();
      i++;
      continue;
    }
    if (type === TokenType.Section) {
      const depth = frames.length + 1;
      put(lineStart(depth - 1));
      put((sections[i] as SectionInfo).text);
      checkSize();
      const m = match[i] as number;
      frames.push({ depth, close: m > i && m < enclosingClose() ? m : -1, children: 0, afterSection: false });
      i++;
      continue;
    }
    let used: number;
    if (!top) {
      put('\n');
      used = putValue(i);
    } else {
      const sameLine = top.children > 0 && !top.afterSection && (type === TokenType.Int || type === TokenType.Float);
      if (sameLine) put('\t');
      else {
        put(lineStart(top.depth));
      }
      used = putValue(i);
      top.children++;
      top.afterSection = false;
    }
    checkSize();
    i += used;
  }
  while (frames.length > 0) endFrame();
  checkSize();
  // Strings may hold CRLF or CR (pvfUtility stores multi-line strings with CRLF): the canonical text has `\n` only.
  return { text: normalizeText(out.join('')), missingLinks };
}
