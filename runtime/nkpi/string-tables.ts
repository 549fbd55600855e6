/**
 * String tables of an nkpi archive and `<idx::key>` placeholders (pvf-nkpi-format §11.5, §13), read
 * straight from the archive's tokens and UTF-16 payloads as pvfine reads them:
 *
 * - Maps, in decreasing precedence: `list/n_string.lst`, `n_string.lst`, `list/n_string_translate.lst`,
 *   `n_string_translate.lst`, `list/n_string_kor.lst`, `n_string_kor.lst`; DataType-1 lists of
 *   `int index` + path (type 6, 8 or 10). Candidates of an index are merged in that order, ignoring
 *   case-insensitive duplicates. A listed file that is missing is replaced by the first of
 *   `<base>.translate.str`, `<base>.kor.str`, `<base>.uv.str`, `<base>.str` (base = the path minus its
 *   last extension) that exists.
 * - `.str` payloads: UTF-16LE (BOM optional), the text ends at the first U+0000, `key>value` lines
 *   split at the first `>` with a non-empty key, `//` comment lines, CRLF or LF; the **last** duplicate
 *   key wins.
 * - Lookup: the first non-empty value over the candidates; an answer not from the first candidate is a
 *   fallback, marked `（未翻译）` when placeholders are resolved inside text.
 *
 * (The workspace-level resolver, runtime/workspace/string-table.ts, does the same for every workspace
 * kind through text; it differs in taking the first duplicate key and in reading past U+0000.)
 */
import { DataType, type NkpiArchive } from './nkpi-archive.js';
import { readNkpiTokens } from './render-script.js';

export const NKPI_STRING_LISTS = [
  'list/n_string.lst',
  'n_string.lst',
  'list/n_string_translate.lst',
  'n_string_translate.lst',
  'list/n_string_kor.lst',
  'n_string_kor.lst',
] as const;

export const NKPI_STR_FALLBACK_SUFFIXES = ['.translate.str', '.kor.str', '.uv.str', '.str'] as const;

export const UNTRANSLATED = '（未翻译）';

export interface NkpiStringLookup {
  status: 'resolved' | 'missing' | 'unsupported';
  text: string | null;
  /** The `.str` file that answered. */
  path: string | null;
  fallback: boolean;
}

/** A whole placeholder `<idx::key>` (idx: Go Atoi of the trimmed left part; key trimmed, non-empty), else null. */
export function parseNkpiPlaceholder(text: string): { table: number; key: string } | null {
  if (text.length < 5 || !text.startsWith('<') || !text.endsWith('>')) return null;
  const inside = text.slice(1, -1);
  const sep = inside.indexOf('::');
  if (sep < 0) return null;
  const left = inside.slice(0, sep).trim();
  const key = inside.slice(sep + 2).trim();
  if (!/^[+-]?\d+$/.test(left) || key === '') return null;
  const table = Number(left);
  if (!Number.isSafeInteger(table)) return null;
  return { table, key };
}

/** `.str` text → key → value (text up to the first U+0000; last duplicate wins). */
export function parseNkpiStr(bytes: Uint8Array): Map<string, string> {
  let text = new TextDecoder('utf-16le').decode(bytes);
  const nul = text.indexOf('\u0000');
  if (nul >= 0) text = text.slice(0, nul);
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('//')) continue;
    const gt = line.indexOf('>');
    if (gt <= 0) continue;
    out.set(line.slice(0, gt), line.slice(gt + 1).replace(/\r$/, ''));
  }
  return out;
}

export class NkpiStringTables {
  private lists: Map<number, string>[] | undefined;
  private readonly candidateCache = new Map<number, string[]>();
  private readonly tables = new Map<string, Map<string, string> | null>();

  constructor(private readonly archive: NkpiArchive) {}

  /** Whether any of the maps exists. */
  get available(): boolean {
    return NKPI_STRING_LISTS.some((p) => this.archive.resolve(p) >= 0);
  }

  /** The existing `.str` files of a table, in lookup order. */
  candidates(table: number): string[] {
    const cached = this.candidateCache.get(table);
    if (cached) return cached;
    const out: string[] = [];
    const seen = new Set<string>();
    for (const list of this.loadLists()) {
      const listed = list.get(table);
      if (listed === undefined) continue;
      let found = this.existing(listed);
      if (found === null) {
        const dot = listed.lastIndexOf('.');
        const base = dot > listed.lastIndexOf('/') ? listed.slice(0, dot) : listed;
        for (const suffix of NKPI_STR_FALLBACK_SUFFIXES) {
          found = this.existing(base + suffix);
          if (found !== null) break;
        }
      }
      if (found !== null && !seen.has(found.toLowerCase())) {
        seen.add(found.toLowerCase());
        out.push(found);
      }
    }
    this.candidateCache.set(table, out);
    return out;
  }

  lookup(table: number, key: string): NkpiStringLookup {
    if (!this.available) return { status: 'unsupported', text: null, path: null, fallback: false };
    const list = this.candidates(table);
    for (let i = 0; i < list.length; i++) {
      const path = list[i] as string;
      const value = this.table(path)?.get(key);
      if (value !== undefined && value !== '') return { status: 'resolved', text: value, path, fallback: i > 0 };
    }
    return { status: 'missing', text: null, path: null, fallback: false };
  }

  /** Resolves every `<idx::key>` in `text` left to right; unresolved ones stay verbatim. */
  resolveText(text: string): string {
    let out = '';
    let pos = 0;
    for (;;) {
      const open = text.indexOf('<', pos);
      if (open < 0) break;
      const close = text.indexOf('>', open + 1);
      if (close < 0) break;
      const placeholder = parseNkpiPlaceholder(text.slice(open, close + 1));
      const found = placeholder ? this.lookup(placeholder.table, placeholder.key) : null;
      if (found?.status === 'resolved' && found.text !== null) {
        out += text.slice(pos, open) + found.text + (found.fallback ? UNTRANSLATED : '');
        pos = close + 1;
      } else {
        out += text.slice(pos, open + 1);
        pos = open + 1;
      }
    }
    return out + text.slice(pos);
  }

  private existing(path: string): string | null {
    try {
      const entry = this.archive.resolve(path);
      return entry < 0 ? null : this.archive.pathOf(entry);
    } catch {
      return null;
    }
  }

  private loadLists(): Map<number, string>[] {
    if (this.lists) return this.lists;
    const lists: Map<number, string>[] = [];
    for (const listPath of NKPI_STRING_LISTS) {
      const entry = this.archive.resolve(listPath);
      if (entry < 0 || this.archive.dataTypeOf(entry) !== DataType.Script) continue;
      const tokens = readNkpiTokens(this.archive.payload(entry));
      const map = new Map<number, string>();
      for (let i = 0; i + 1 < tokens.count; i += 2) {
        const pathType = tokens.types[i + 1] as number;
        if (tokens.types[i] !== 0 || (pathType !== 6 && pathType !== 8 && pathType !== 10)) continue;
        const id = tokens.values[i] as number;
        const path = this.archive.pools.stringAt(tokens.values[i + 1] as number);
        if (path === null || path.trim() === '' || map.has(id)) continue;
        map.set(id, path.trim().replaceAll('\\', '/').replace(/^\/+/, ''));
      }
      lists.push(map);
    }
    this.lists = lists;
    return lists;
  }

  private table(path: string): Map<string, string> | null {
    if (this.tables.has(path)) return this.tables.get(path) ?? null;
    const entry = this.archive.resolve(path);
    const parsed = entry < 0 ? null : parseNkpiStr(this.archive.payload(entry));
    this.tables.set(path, parsed);
    return parsed;
  }
}
