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
import { formatScriptFloat } from '../script/script-float.js';
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

/** A string in backticks; a backtick inside is doubled (the only escape of the dialect). */
function quoteScriptString(value: string): string {
  return `\`${value.includes('`') ? value.replaceAll('`', '``') : value}\``;
}

/** Whether a section string prints as itself: `[`…`]` with no `]`, tab or line break inside. */
export function isPlainSection(value: string): boolean {
  return value.length >= 2 && value.startsWith('[') && value.endsWith(']') && !/[\]\t\r\n]/.test(value.slice(1, -1));
}

/** Whether a link key prints inside `<id::key`text`>`: non-empty, no backtick, `>`, tab or line break. */
export function isPlainLinkKey(key: string): boolean {
  return key !== '' && !/[`>\t\r\n]/.test(key);
}

interface Frame {
  depth: number;
  /** Token index of the matching closing tag, or -1 for a section that ends at the next section token. */
  close: number;
  children: number;
  /** The last child was a nested section (the next value starts a new line). */
  afterSection: boolean;
}

/** Decompiles a token stream (tokens already validated to types 2..10). */
export function decompileScript(tokens: ScriptTokens, context: DecompileContext): DecompiledScript {
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
  const sectionTexts: (string | undefined)[] = new Array<string | undefined>(count);
  const open = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    if (types[i] !== TokenType.Section) continue;
    const s = stringAt(i);
    sectionTexts[i] = s;
    if (s.length < 3 || !s.startsWith('[') || !s.endsWith(']')) continue;
    if (s[1] === '/') {
      const stack = open.get(s.slice(2, -1));
      const opener = stack?.pop();
      if (opener !== undefined) match[opener] = i;
    } else {
      const name = s.slice(1, -1);
      let stack = open.get(name);
      if (!stack) open.set(name, (stack = []));
      stack.push(i);
    }
  }

  const sectionText = (i: number): string => {
    const s = sectionTexts[i] as string;
    return isPlainSection(s) ? s : `{5=${quoteScriptString(s)}}`;
  };

  /** Text of the value at i and how many tokens it used (a link uses two). */
  const valueText = (i: number): [string, number] => {
    const type = types[i] as number;
    const value = values[i] as number;
    switch (type) {
      case TokenType.Int:
        return [String(value), 1];
      case TokenType.IntEx:
        return [`{3=${value}}`, 1];
      case TokenType.Float:
        return [formatScriptFloat(value) ?? `{4=${value}}`, 1];
      case TokenType.String:
        return [quoteScriptString(stringAt(i)), 1];
      case TokenType.Command:
      case TokenType.CommandSeparator:
        return [`{${type}=${quoteScriptString(stringAt(i))}}`, 1];
      case TokenType.LinkIndex: {
        if (i + 1 < count && types[i + 1] === TokenType.LinkKey) {
          const key = stringAt(i + 1);
          if (isPlainLinkKey(key)) {
            const found = context.linkText(value, key);
            let text = '';
            if ('text' in found) text = found.text;
            else if (missingLinks.length < MAX_MISSING_LINKS) missingLinks.push({ table: value, key, reason: found.missing });
            return [`<${value}::${key}${quoteScriptString(text)}>`, 2];
          }
        }
        return [`{9=${value}}`, 1];
      }
      case TokenType.LinkKey:
        return [`{10=${quoteScriptString(stringAt(i))}}`, 1];
      default:
        // Types are validated when the tokens are read; keep the value lossless anyway.
        return [`{${type}=${value}}`, 1];
    }
  };

  const out: string[] = [];
  let units = 0;
  const emit = (piece: string): void => {
    units += piece.length;
    if (units > MAX_DECOMPILED_UNITS) {
      throw new PvfdocError('RESPONSE_TOO_LARGE', `${context.archive}: ${context.path}: its decompiled text exceeds ${MAX_DECOMPILED_UNITS} characters`, {
        hint: 'This script is too large (or built to expand) to read through pvfdoc; open it with another tool.',
        data: { archive: context.archive, path: context.path, limit: MAX_DECOMPILED_UNITS },
      });
    }
    out.push(piece);
  };
  emit(`${SCRIPT_HEADER}\n`);
  const tabs: string[] = [''];
  const indent = (depth: number): string => {
    const d = Math.min(depth, MAX_INDENT);
    while (tabs.length <= d) tabs.push(`${tabs[tabs.length - 1]}\t`);
    return tabs[d] as string;
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
      emit('\n');
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
      emit(`\n${indent(top.depth - 1)}${sectionText(i)}`);
      endFrame();
      i++;
      continue;
    }
    if (type === TokenType.Section) {
      const depth = frames.length + 1;
      emit(`\n${indent(depth - 1)}${sectionText(i)}`);
      const m = match[i] as number;
      frames.push({ depth, close: m > i && m < enclosingClose() ? m : -1, children: 0, afterSection: false });
      i++;
      continue;
    }
    const [text, used] = valueText(i);
    if (!top) {
      emit(`\n${text}`);
    } else {
      const sameLine = top.children > 0 && !top.afterSection && (type === TokenType.Int || type === TokenType.Float);
      emit(sameLine ? `\t${text}` : `\n${indent(top.depth)}${text}`);
      top.children++;
      top.afterSection = false;
    }
    i += used;
  }
  while (frames.length > 0) endFrame();
  // Strings may hold CRLF or CR (pvfUtility stores multi-line strings with CRLF): the canonical text has `\n` only.
  return { text: normalizeText(out.join('')), missingLinks };
}
