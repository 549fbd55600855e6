/**
 * pvfine's file matching (rule-format §2.1): archive paths and globs are normalised alike (`\`→`/`, no
 * leading/trailing `/`, lower case), split on `/`; a `**` segment matches zero or more whole segments and
 * every other segment matches exactly one path segment with Go's `path.Match` rules (`*`, `?`, `[...]`,
 * `[^...]`, ranges). Backslashes are separators here, so there are no escapes.
 *
 * Own implementation on purpose: picomatch and friends add braces, extglobs and `!` negation and treat
 * `[!...]` differently, which pvfine does not.
 */
import { extensionOf } from './archive-path.js';

/** The form paths and globs are compared in: `\`→`/`, no leading or trailing `/`, lower case. */
export function matchKey(p: string): string {
  return trimSlashes(p.replaceAll('\\', '/')).toLowerCase();
}

/**
 * Null when `pattern` is a valid glob, else what is wrong with it. Each segment other than `**` is checked
 * the way Go's `path.Match` reports `ErrBadPattern` (its text, "syntax error in pattern", starts the
 * message). Empty segments are allowed, as in Go.
 */
export function globError(pattern: string): string | null {
  for (const segment of matchKey(pattern).split('/')) {
    if (segment === '**') continue;
    const compiled = compileSegment(segment);
    if (typeof compiled === 'string') return `syntax error in pattern: ${compiled} in segment "${segment}"`;
  }
  return null;
}

/**
 * Whether `filePath` matches the glob `pattern` (both normalised; the whole path must be consumed).
 * An invalid pattern matches nothing. Runs in O(segments² × segment length²) at worst, so adversarial
 * patterns (`*a*a*a*b`, many `**`) finish quickly.
 */
export function matchGlob(pattern: string, filePath: string): boolean {
  const compiled = compileGlob(pattern);
  if (compiled === null) return false;
  const parts = matchKey(filePath).split('/');
  // next[j]: the pattern after segment i matches parts[j..]; computed from the last segment backwards.
  let next: boolean[] = new Array<boolean>(parts.length + 1).fill(false);
  next[parts.length] = true;
  for (let i = compiled.length - 1; i >= 0; i--) {
    const segment = compiled[i] as CompiledSegment;
    const cur: boolean[] = new Array<boolean>(parts.length + 1).fill(false);
    if (segment === GLOBSTAR) {
      let found = false;
      for (let j = parts.length; j >= 0; j--) {
        found ||= next[j] === true;
        cur[j] = found;
      }
    } else {
      for (let j = parts.length - 1; j >= 0; j--) {
        cur[j] = next[j + 1] === true && matchSegment(segment, parts[j] as string);
      }
    }
    next = cur;
  }
  return next[0] === true;
}

/**
 * rule-format §2.1 for a `match` block: with extensions, directories fail and the path's final extension
 * must be one of them (case-insensitive); then a non-blank glob must match.
 */
export function matchesDefinition(
  match: { extensions: string[]; glob: string },
  filePath: string,
  isDirectory: boolean,
): boolean {
  if (match.extensions.length > 0) {
    if (isDirectory) return false;
    const extension = extensionOf(filePath);
    if (!match.extensions.some((e) => e.toLowerCase() === extension)) return false;
  }
  if (match.glob.trim() === '') return true;
  return matchGlob(match.glob, filePath);
}

// ---------------------------------------------------------------------------------------------------

function trimSlashes(p: string): string {
  let start = 0;
  let end = p.length;
  while (start < end && p[start] === '/') start++;
  while (end > start && p[end - 1] === '/') end--;
  return p.slice(start, end);
}

const GLOBSTAR = Symbol('**');

type Token =
  | { kind: 'star' }
  | { kind: 'any' }
  | { kind: 'char'; char: string }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] };

type CompiledSegment = typeof GLOBSTAR | Token[];

const globCache = new Map<string, CompiledSegment[] | null>();
const GLOB_CACHE_LIMIT = 512;

function compileGlob(pattern: string): CompiledSegment[] | null {
  const cached = globCache.get(pattern);
  if (cached !== undefined) return cached;
  let compiled: CompiledSegment[] | null = [];
  for (const segment of matchKey(pattern).split('/')) {
    if (segment === '**') {
      // Consecutive `**` match the same paths as one.
      if (compiled[compiled.length - 1] !== GLOBSTAR) compiled.push(GLOBSTAR);
      continue;
    }
    const tokens = compileSegment(segment);
    if (typeof tokens === 'string') {
      compiled = null;
      break;
    }
    compiled.push(tokens);
  }
  if (globCache.size >= GLOB_CACHE_LIMIT) globCache.clear();
  globCache.set(pattern, compiled);
  return compiled;
}

/**
 * Parses one segment with Go `path.Match` syntax; returns what is wrong as a string. Go's rules for a
 * class: `[`, optional `^`, then one or more `lo` or `lo-hi` items where neither end may be `-` or `]`,
 * closed by the first `]` after at least one item; anything else is `ErrBadPattern`.
 */
function compileSegment(segment: string): Token[] | string {
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
      i++;
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
      i++;
    } else if (c === '[') {
      i++;
      let negated = false;
      if (chars[i] === '^') {
        negated = true;
        i++;
      }
      const ranges: [number, number][] = [];
      for (;;) {
        if (chars[i] === ']' && ranges.length > 0) {
          i++;
          break;
        }
        const lo = classChar(chars, i, 'lower');
        if (typeof lo === 'string') return lo;
        i++;
        let hi = lo;
        if (chars[i] === '-') {
          i++;
          const end = classChar(chars, i, 'upper');
          if (typeof end === 'string') return end;
          hi = end;
          i++;
        }
        ranges.push([lo, hi]);
      }
      tokens.push({ kind: 'class', negated, ranges });
    } else {
      tokens.push({ kind: 'char', char: c });
      i++;
    }
  }
  return tokens;
}

const UNCLOSED = 'unclosed "[" class (add "]")';

/** Go's `getEsc` without escapes: one class member, which must be followed by more pattern. */
function classChar(chars: readonly string[], i: number, role: 'lower' | 'upper'): number | string {
  const c = chars[i];
  if (c === undefined) return UNCLOSED;
  if (c === ']') return role === 'upper' ? 'range without an upper end before "]"' : 'empty "[]" class';
  if (c === '-') return role === 'upper' ? 'range whose upper end is "-"' : '"-" where a class member was expected (ranges are "a-z"; "-" cannot be a member)';
  if (i + 1 >= chars.length) return UNCLOSED;
  return c.codePointAt(0) as number;
}

/** Wildcard match of one path segment, by code point; greedy with backtracking to the last `*` (O(n·m)). */
function matchSegment(tokens: readonly Token[], text: string): boolean {
  const chars = text.length === 0 ? [] : Array.from(text);
  let t = 0;
  let s = 0;
  let starT = -1;
  let starS = 0;
  while (s < chars.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind === 'star') {
      starT = t++;
      starS = s;
      continue;
    }
    if (token !== undefined && matchOne(token, chars[s] as string)) {
      t++;
      s++;
      continue;
    }
    if (starT < 0) return false;
    t = starT + 1;
    s = ++starS;
  }
  while (t < tokens.length && tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

function matchOne(token: Exclude<Token, { kind: 'star' }>, char: string): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'char':
      return token.char === char;
    case 'class': {
      const cp = char.codePointAt(0) as number;
      const inside = token.ranges.some(([lo, hi]) => lo <= cp && cp <= hi);
      return inside !== token.negated;
    }
  }
}

/**
 * pvfdoc's `target.sectionPattern`: a section name against one Go `path.Match` segment pattern (`*`,
 * `?`, `[0-9]`, `[^...]`), both lower-cased, the whole name consumed. Section names compare
 * case-insensitively everywhere, so `FRAME[0-9][0-9][0-9]` matches `[frame012]`. An invalid pattern
 * matches nothing.
 */
export function matchSectionPattern(pattern: string, name: string): boolean {
  let tokens = sectionPatternCache.get(pattern);
  if (tokens === undefined) {
    tokens = sectionPatternError(pattern) === null ? (compileSegment(pattern.toLowerCase()) as Token[]) : null;
    if (sectionPatternCache.size >= GLOB_CACHE_LIMIT) sectionPatternCache.clear();
    sectionPatternCache.set(pattern, tokens);
  }
  return tokens !== null && matchSegment(tokens, name.toLowerCase());
}

/** Null when `pattern` is a valid section-name pattern (one segment: no "/"), else what is wrong. */
export function sectionPatternError(pattern: string): string | null {
  if (pattern.includes('/') || pattern.includes('\\')) return 'a section pattern is one name: no "/" or "\\"';
  const compiled = compileSegment(pattern.toLowerCase());
  return typeof compiled === 'string' ? `syntax error in pattern: ${compiled}` : null;
}

const sectionPatternCache = new Map<string, Token[] | null>();
