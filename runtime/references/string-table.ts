/**
 * String-table placeholders `<table::key>` (rule-format §4.5).
 *
 * Table number → `.str` files: the lists `list/n_string.lst` (base localisation, highest precedence),
 * `n_string.lst`, `list/n_string_translate.lst`, `n_string_translate.lst`, `list/n_string_kor.lst`,
 * `n_string_kor.lst`, each a token script of alternating table number / path. Every list that has the
 * table adds one candidate file; a candidate that does not exist is replaced by its first existing
 * sibling with the suffix `.translate.str`, `.kor.str`, `.uv.str` or `.str`. The first candidate whose
 * table holds the key with a non-empty value answers; `fallback` says it was not the first candidate
 * (only an overlay or another language knew the key).
 *
 * `.str` payloads (decision on encodings): UTF-16LE `key>value` lines as in 110US archives (a BOM, `//`
 * comment lines and CRLF are accepted; UTF-16BE with its BOM too). Folder workspaces written by tools
 * often hold the same tables as UTF-8 text, so bytes that are not UTF-16 (no BOM and no NUL-byte
 * pattern of UTF-16) are read as UTF-8 (a UTF-8 BOM is dropped); when they are not valid UTF-8 and the
 * caller names a legacy code page (classic archives: cp950, cp936, cp949...), they are decoded with it
 * (iconv-lite), else leniently as UTF-8. A line is split at its first `>`; keys are trimmed; a line
 * without `>` or starting with it is skipped; the first non-empty value of a key in a file counts.
 *
 * Everything is read lazily through one workspace view and cached in the returned object.
 */
import iconv from 'iconv-lite';
import type { WorkspaceView } from '../workspace/workspace.js';
import { PvfdocError } from '../errors.js';
import type { LinkResolutionStatus } from './reference-query.js';
import { parseScriptView, tokenValue } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';
import { parseInt32 } from '../script/canonical-number.js';
import { basenameOf, dirnameOf } from '../script/archive-path.js';

/** The lists mapping table numbers to `.str` files, highest precedence first. */
const STRING_TABLE_LISTS = [
  'list/n_string.lst',
  'n_string.lst',
  'list/n_string_translate.lst',
  'n_string_translate.lst',
  'list/n_string_kor.lst',
  'n_string_kor.lst',
] as const;

/** Sibling files tried, in order, when a listed `.str` file does not exist. */
const STRING_TABLE_SIBLING_SUFFIXES = ['.translate.str', '.kor.str', '.uv.str', '.str'] as const;

/** Suffixes stripped to find a `.str` file's stem (longest first). */
const KNOWN_STR_SUFFIXES = ['.translate.str', '.kor.str', '.chn.str', '.uv.str', '.str'];

/** Appended to a text that only a fallback candidate knew (pvfine's marker). */
export const UNTRANSLATED_MARKER = '（未翻译）';

interface Placeholder {
  table: number;
  /** The key as written (pvfUtility's `<0::key`text`>` form: the part before the backtick). */
  key: string;
}

/** A whole token value `<index::key>` (index base-10, spaces around it allowed; key non-empty), else null. */
export function parsePlaceholder(value: string): Placeholder | null {
  const match = /^<([^<>:]*)::([^]*)>$/.exec(value);
  if (!match) return null;
  return placeholderOf(match[1] ?? '', match[2] ?? '');
}

function placeholderOf(indexText: string, keyText: string): Placeholder | null {
  const index = indexText.trim();
  if (!/^\d+$/.test(index)) return null;
  const table = parseInt32(index);
  if (table === null) return null;
  // pvfUtility prints the resolved text after the key: <0::name_1`Sword`>.
  const tick = keyText.indexOf('`');
  const key = tick > 0 && keyText.endsWith('`') ? keyText.slice(0, tick) : keyText;
  if (key === '' || key.includes('>')) return null;
  return { table, key };
}

interface StringLookup {
  status: LinkResolutionStatus;
  text: string | null;
  /** The `.str` file that answered. */
  path: string | null;
  /** Answered by a candidate other than the first. */
  fallback: boolean;
}

export interface StringTables {
  /** Whether the workspace has any of the STRING_TABLE_LISTS (else every lookup is `unsupported`). */
  readonly available: boolean;
  lookup(table: number, key: string): StringLookup;
  /** The `.str` candidates of a table, in lookup order (existing files only). */
  candidates(table: number): readonly string[];
  /**
   * Replaces every embedded `<index::key>` left to right by its text (plus UNTRANSLATED_MARKER when a
   * fallback answered); unresolved ones stay verbatim.
   */
  resolveText(text: string): string;
}

interface StringTableOptions {
  /** iconv-lite name of the archive's legacy code page, for `.str` bytes that are neither UTF-16 nor UTF-8. */
  legacyEncoding?: string;
}

export function createStringTables(view: WorkspaceView, options: StringTableOptions = {}): StringTables {
  let lists: Map<number, string>[] | undefined;
  const candidateCache = new Map<number, string[]>();
  const tableCache = new Map<string, Map<string, string> | null>();

  const available = STRING_TABLE_LISTS.some((p) => safeResolve(view, p) !== null);

  const loadLists = (): Map<number, string>[] => {
    if (lists) return lists;
    const out: Map<number, string>[] = [];
    for (const listPath of STRING_TABLE_LISTS) {
      const stored = safeResolve(view, listPath);
      if (stored === null) continue;
      const text = safeReadText(view, stored);
      const map = new Map<number, string>();
      if (text !== null) {
        const list = parseScriptView(text);
        for (let i = 0; i + 1 < list.tokenCount; i += 2) {
          const index = parseInt32(trimSpace(tokenValue(list, i)));
          const path = trimSpace(tokenValue(list, i + 1)).replaceAll('\\', '/').replace(/^\/+/, '');
          if (index === null || path === '' || map.has(index)) continue;
          map.set(index, path);
        }
      }
      out.push(map);
    }
    lists = out;
    return out;
  };

  const candidates = (table: number): string[] => {
    const cached = candidateCache.get(table);
    if (cached) return cached;
    const out: string[] = [];
    for (const list of loadLists()) {
      const listed = list.get(table);
      if (listed === undefined) continue;
      let found = safeResolve(view, listed);
      if (found === null) {
        const stem = strStem(listed);
        for (const suffix of STRING_TABLE_SIBLING_SUFFIXES) {
          found = safeResolve(view, stem + suffix);
          if (found !== null) break;
        }
      }
      if (found !== null && !out.includes(found)) out.push(found);
    }
    candidateCache.set(table, out);
    return out;
  };

  const table = (path: string): Map<string, string> | null => {
    if (tableCache.has(path)) return tableCache.get(path) ?? null;
    let parsed: Map<string, string> | null = null;
    const bytes = safeReadBytes(view, path);
    if (bytes !== null) parsed = parseStringTable(decodeStringTable(bytes, options.legacyEncoding));
    tableCache.set(path, parsed);
    return parsed;
  };

  const lookup = (tableIndex: number, key: string): StringLookup => {
    if (!available) return { status: 'unsupported', text: null, path: null, fallback: false };
    const wanted = key.trim();
    const list = candidates(tableIndex);
    for (let i = 0; i < list.length; i++) {
      const path = list[i] as string;
      const value = table(path)?.get(wanted);
      if (value !== undefined && value !== '') return { status: 'resolved', text: value, path, fallback: i > 0 };
    }
    return { status: 'missing', text: null, path: null, fallback: false };
  };

  return {
    available,
    lookup,
    candidates,
    resolveText(text) {
      if (!text.includes('::')) return text;
      return text.replace(/<([^<>:]*)::([^<>]*)>/g, (whole, index: string, key: string) => {
        const placeholder = placeholderOf(index, key);
        if (!placeholder) return whole;
        const found = lookup(placeholder.table, placeholder.key);
        if (found.status !== 'resolved' || found.text === null) return whole;
        return found.fallback ? found.text + UNTRANSLATED_MARKER : found.text;
      });
    },
  };
}

/** Decodes `.str` bytes (see the module comment for the order of guesses). */
export function decodeStringTable(bytes: Uint8Array, legacyEncoding?: string): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const utf16 = utf16Guess(bytes);
  if (utf16 !== null) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (legacyEncoding && iconv.encodingExists(legacyEncoding)) return iconv.decode(Buffer.from(bytes), legacyEncoding);
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** UTF-16 without a BOM: most high bytes of the first code units are 0 (ASCII keys and `>`). */
function utf16Guess(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const units = Math.min(bytes.length >> 1, 2048);
  if (units < 2) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < units; i++) {
    if (bytes[2 * i] === 0) evenZero++;
    if (bytes[2 * i + 1] === 0) oddZero++;
  }
  if (oddZero >= units * 0.3 && evenZero < units * 0.05) return 'utf-16le';
  if (evenZero >= units * 0.3 && oddZero < units * 0.05) return 'utf-16be';
  return null;
}

/** `key>value` lines → key (trimmed) → first non-empty value. */
export function parseStringTable(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.trimStart().startsWith('//')) continue;
    const gt = line.indexOf('>');
    if (gt <= 0) continue;
    const key = line.slice(0, gt).trim();
    const value = line.slice(gt + 1);
    if (key === '') continue;
    const existing = out.get(key);
    if (existing === undefined || existing === '') out.set(key, value);
  }
  return out;
}

function strStem(path: string): string {
  const base = basenameOf(path);
  const lower = base.toLowerCase();
  for (const suffix of KNOWN_STR_SUFFIXES) {
    if (lower.endsWith(suffix)) {
      const dir = dirnameOf(path);
      const stem = base.slice(0, base.length - suffix.length);
      return dir === '' ? stem : `${dir}/${stem}`;
    }
  }
  return path;
}

// --- Reads that tolerate unreadable files but never a changed workspace ---

/** Errors that must reach the caller: the view is no longer consistent or no longer readable. */
function isFatalReadError(error: unknown): boolean {
  return error instanceof PvfdocError && (error.code === 'STALE_WORKSPACE' || error.code === 'NO_ARCHIVE');
}

/** view.resolveFile, with null for paths the workspace refuses (`..`, absolute). */
export function safeResolve(view: WorkspaceView, path: string): string | null {
  try {
    return view.resolveFile(path);
  } catch (error) {
    if (isFatalReadError(error)) throw error;
    return null;
  }
}

/** The text of a script file, or null when it is not a script or cannot be read (too large, I/O). */
export function safeReadText(view: WorkspaceView, path: string): string | null {
  try {
    const read = view.readText(path);
    return read.isScript ? read.text : null;
  } catch (error) {
    if (isFatalReadError(error)) throw error;
    return null;
  }
}

function safeReadBytes(view: WorkspaceView, path: string): Uint8Array | null {
  try {
    return view.readBytes(path);
  } catch (error) {
    if (isFatalReadError(error)) throw error;
    return null;
  }
}
