/**
 * The tolerant script lexer of rule-format §3.2, over the normalised text (normalize-text.ts). It never
 * throws: malformed fragments are skipped as pvfine skips them and reported as warnings.
 *
 * Offsets are indexes into the JavaScript string, i.e. UTF-16 code units (§3.3): a code point above
 * U+FFFF counts 2. Every delimiter is ASCII, so walking code units gives the same lexemes as pvfine's
 * walk over code points.
 *
 * Classic (pvfUtility-dialect) forms, read as the tokens they stand for, so explain never misreads the
 * canonical text of a classic archive (runtime/classic/README.md; pvfine has none of them and would
 * split them into several tokens):
 *
 * - `<id::key`text`>` (a string link: the token pair 9+10) is one type-8 token whose value is the
 *   placeholder `<id::key>` (id canonical; the text is the `.str` lookup and is not kept). Only when
 *   the whole form is there: an int32 id, a non-empty key without a backtick, `>`, tab or line break,
 *   a terminated backtick text and the `>` right after it; anything else lexes as before.
 * - `{6=…}` (a command) is a block string like `{5=…}`: type 6, value unwrapped.
 * - `{3=n}` (an IntEx) is the integer n (type 0) and `{4=n}` (a float by its int32 bits: negative zero,
 *   infinities, NaN) is that float (type 2, formatted as a bare float is: `-0`, `+Inf`, `NaN`), when
 *   the body is an int32; otherwise the `{` is skipped as pvfine skips it.
 * - `{9=n}` (a link index without its key) stays pvfine's reading: the `{` is skipped and `9=n}` is one
 *   type-3 word.
 */
import { canonicalWord, formatFloat32, isPlainIntAt, parseInt32 } from './canonical-number.js';
import { float32FromBits } from './script-float.js';
import { trimSpace } from './trim-space.js';

/**
 * 0 integer, 2 float, 3 string/label (bare words, `[]`, `[/]`), 5/6/7/8/10 block strings `{N=…}`, 6
 * backtick string, 8 also a classic string link `<id::key`text`>`.
 */
export type ScriptTokenType = 0 | 2 | 3 | 5 | 6 | 7 | 8 | 10;

/** A UTF-16 range [start, end) of the normalised text. */
export interface TextSpan {
  start: number;
  end: number;
}

export type LexToken =
  /** `[name]`; the span covers the brackets; the name keeps its case and spaces. */
  | { kind: 'open'; name: string; start: number; end: number }
  /** `[/name]`. */
  | { kind: 'close'; name: string; start: number; end: number }
  /** A value; `value` is canonical (numbers re-formatted, strings unescaped/unwrapped). */
  | { kind: 'value'; type: ScriptTokenType; value: string; start: number; end: number };

export type ScriptWarningCode =
  /** A backtick string without its closing backtick: it runs to the end of the text. */
  | 'UNTERMINATED_STRING'
  /** A `[` with no `]` after it anywhere: the `[` is skipped. */
  | 'UNCLOSED_TAG'
  /** A `{5=`, `{6=`, `{7=`, `{8=` or `{10=` marker without its `}`: the `{` is skipped. */
  | 'UNCLOSED_BLOCK'
  /** A closing tag that closes no open section (parse-script-view.ts). */
  | 'STRAY_CLOSING_TAG'
  /** A section whose name has a closing tag elsewhere but is still open at the end (parse-script-view.ts). */
  | 'UNCLOSED_SECTION';

export interface ScriptWarning {
  code: ScriptWarningCode;
  message: string;
  start: number;
  end: number;
}

interface LexResult {
  tokens: LexToken[];
  /** `#` comments, from the `#` to the end of its line (newline excluded). */
  comments: TextSpan[];
  warnings: ScriptWarning[];
}

/**
 * Where a lexer puts what it reads, in text order. The script view writes lexemes into typed columns
 * through one, so a file of millions of tokens does not become millions of objects.
 */
export interface LexSink {
  open(name: string, start: number, end: number): void;
  close(name: string, start: number, end: number): void;
  value(type: ScriptTokenType, value: string, start: number, end: number): void;
  /** A type-0 value that is its own text (canonicalWord would give text[start … end) unchanged). */
  plainInt(start: number, end: number): void;
  /** A type-6 backtick string without doubled backticks: its value is text[start + 1 … end - 1). */
  plainString(start: number, end: number): void;
  comment(start: number, end: number): void;
  warning(code: ScriptWarningCode, message: string, start: number, end: number): void;
}

/** Lexes script text; any string is accepted. */
export function lexScript(text: string): LexResult {
  const tokens: LexToken[] = [];
  const comments: TextSpan[] = [];
  const warnings: ScriptWarning[] = [];
  createLexer(text, {
    open: (name, start, end) => tokens.push({ kind: 'open', name, start, end }),
    close: (name, start, end) => tokens.push({ kind: 'close', name, start, end }),
    value: (type, value, start, end) => tokens.push({ kind: 'value', type, value, start, end }),
    plainInt: (start, end) => tokens.push({ kind: 'value', type: 0, value: text.slice(start, end), start, end }),
    plainString: (start, end) => tokens.push({ kind: 'value', type: 6, value: text.slice(start + 1, end - 1), start, end }),
    comment: (start, end) => comments.push({ start, end }),
    warning: (code, message, start, end) => warnings.push({ code, message, start, end }),
  }).lexUntil(text.length);
  return { tokens, comments, warnings };
}

/** A lexer that can stop between lexemes and go on later, so a caller can lex a large text in slices. */
export interface Lexer {
  /** Reads every lexeme that starts before `offset` (it may end after it); true once the text is done. */
  lexUntil(offset: number): boolean;
}

export function createLexer(text: string, sink: LexSink): Lexer {
  const n = text.length;
  // Past these positions no `]` / `}` exists, so unclosed tags and markers cost O(1) each.
  const lastBracket = text.lastIndexOf(']');
  const lastBrace = text.lastIndexOf('}');
  let markerEnds: Int32Array | undefined;
  const linkKeys: KeyScan = { from: -1, end: -1 };
  let i = 0;
  const lexUntil = (offset: number): boolean => {
    const stop = Math.min(offset, n);
    while (i < stop) {
      const c = text.charCodeAt(i);
      if (isScriptSpace(c)) {
        i++;
        continue;
      }
      if (c === HASH) {
        const newline = text.indexOf('\n', i);
        const end = newline < 0 ? n : newline;
        sink.comment(i, end);
        i = end;
        continue;
      }
      if (c === BACKTICK) {
        // Most strings hold no doubled backtick: their value is their span without the backticks.
        const quote = text.indexOf('`', i + 1);
        if (quote >= 0 && text.charCodeAt(quote + 1) !== BACKTICK) {
          sink.plainString(i, quote + 1);
          i = quote + 1;
          continue;
        }
        const { value, next, terminated } = readBacktickString(text, i);
        sink.value(6, value, i, next);
        if (!terminated) sink.warning('UNTERMINATED_STRING', 'backtick string has no closing backtick; it runs to the end of the text', i, next);
        i = next;
        continue;
      }
      if (c === OPEN_BRACE) {
        const numeric = numberMarkerType(text, i);
        if (numeric !== null) {
          markerEnds ??= i < lastBrace ? findMarkerEnds(text) : undefined;
          const close = markerEnds?.[i + 1] ?? -1;
          const token = close >= 0 && close - i <= MAX_NUMBER_MARKER ? numberMarkerToken(numeric, text.slice(i + 3, close)) : null;
          if (token !== null) {
            sink.value(token.type, token.value, i, close + 1);
            i = close + 1;
            continue;
          }
        }
        const marker = markerType(text, i);
        if (marker !== null) {
          markerEnds ??= i < lastBrace ? findMarkerEnds(text) : undefined;
          const close = markerEnds?.[i + 1] ?? -1;
          if (close >= 0) {
            sink.value(marker.type, markerValue(text.slice(i + marker.prefix, close)), i, close + 1);
            i = close + 1;
            continue;
          }
          sink.warning('UNCLOSED_BLOCK', `block string marker "${text.slice(i, i + marker.prefix)}" has no closing "}"; the "{" is skipped`, i, i + marker.prefix);
        }
        i++;
        continue;
      }
      if (c === OPEN_BRACKET) {
        const close = i < lastBracket ? text.indexOf(']', i + 1) : -1;
        if (close < 0) {
          sink.warning('UNCLOSED_TAG', '"[" has no closing "]"; it is skipped', i, i + 1);
          i++;
          continue;
        }
        tagToken(sink, text, i, close);
        i = close + 1;
        continue;
      }
      if (c === LESS_THAN) {
        const link = readLink(text, i, linkKeys);
        if (link !== null) {
          sink.value(8, link.value, i, link.next);
          i = link.next;
          continue;
        }
      }
      const start = i;
      while (i < n && !endsWord(text.charCodeAt(i))) i++;
      if (isPlainIntAt(text, start, i)) {
        sink.plainInt(start, i);
        continue;
      }
      const { type, value } = canonicalWord(text.slice(start, i));
      sink.value(type, value, start, i);
    }
    return i >= n;
  };
  return { lexUntil };
}

/** Space, `\t`, `\n`, `\v`, `\f`, `\r`: the only whitespace of the script syntax. */
function isScriptSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

// --- Internal helpers ---

const HASH = 0x23;
const BACKTICK = 0x60;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;

function endsWord(code: number): boolean {
  return isScriptSpace(code) || code === BACKTICK || code === OPEN_BRACE || code === OPEN_BRACKET;
}

/**
 * Reads a backtick string at `start`: a doubled backtick is a literal one; an unterminated string
 * runs to the end of the text.
 */
function readBacktickString(text: string, start: number): { value: string; next: number; terminated: boolean } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('`', i);
    if (quote < 0) return { value: value + text.slice(i), next: text.length, terminated: false };
    value += text.slice(i, quote);
    if (text.charCodeAt(quote + 1) === BACKTICK) {
      value += '`';
      i = quote + 2;
      continue;
    }
    return { value, next: quote + 1, terminated: true };
  }
}

const MARKERS: readonly { prefix: string; type: ScriptTokenType }[] = [
  { prefix: '{5=', type: 5 },
  { prefix: '{6=', type: 6 },
  { prefix: '{7=', type: 7 },
  { prefix: '{8=', type: 8 },
  { prefix: '{10=', type: 10 },
];

/**
 * The marker at `i`, if the text there starts a block string. pvfine first looks for the `}` and then
 * rejects markers without a known prefix; testing the prefix first gives the same tokens and keeps
 * runs of stray `{` linear.
 */
function markerType(text: string, i: number): { type: ScriptTokenType; prefix: number } | null {
  for (const marker of MARKERS) {
    if (text.startsWith(marker.prefix, i)) return { type: marker.type, prefix: marker.prefix.length };
  }
  return null;
}

/**
 * For every position, the first `}` at or after it that lies outside backtick runs when scanning starts
 * there outside a run (pvfine's `findMarkerEnd`: a backtick toggles the run, a doubled backtick inside a
 * run is a literal); -1 when there is none. One right-to-left pass with the two scanner states, so a
 * file full of unclosed markers stays linear instead of rescanning to the end for each one.
 */
function findMarkerEnds(text: string): Int32Array {
  const n = text.length;
  const outside = new Int32Array(n + 2).fill(-1);
  const inside = new Int32Array(n + 2).fill(-1);
  for (let i = n - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === BACKTICK) {
      outside[i] = inside[i + 1] as number;
      inside[i] = (text.charCodeAt(i + 1) === BACKTICK ? inside[i + 2] : outside[i + 1]) as number;
    } else {
      outside[i] = c === CLOSE_BRACE ? i : (outside[i + 1] as number);
      inside[i] = inside[i + 1] as number;
    }
  }
  return outside;
}

/** A marker body, trimmed, unwrapped when it is exactly one backtick string (pvfine also unwraps an unterminated one). */
function markerValue(body: string): string {
  const inner = trimSpace(body);
  if (inner.charCodeAt(0) === BACKTICK) {
    const { value, next } = readBacktickString(inner, 0);
    if (next === inner.length) return value;
  }
  return inner;
}

/** `[name]` → open, `[/name]` → close; `[]` and `[/]` are plain type-3 values. The tag is text[start … close]. */
function tagToken(sink: LexSink, text: string, start: number, close: number): void {
  const slash = text.charCodeAt(start + 1) === 0x2f; /* / */
  const inner = close - start - 1;
  if (inner === 0 || (inner === 1 && slash)) sink.value(3, text.slice(start, close + 1), start, close + 1);
  else if (slash) sink.close(text.slice(start + 2, close), start, close + 1);
  else sink.open(text.slice(start + 1, close), start, close + 1);
}

// --- Classic forms (see the file comment) ---

/** `{3=` or `{4=` at `i` (both prefixes are 3 units long). */
function numberMarkerType(text: string, i: number): 3 | 4 | null {
  if (text.charCodeAt(i + 2) !== 0x3d /* = */) return null;
  const digit = text.charCodeAt(i + 1);
  return digit === 0x33 ? 3 : digit === 0x34 ? 4 : null;
}

/** Longest `{3=…}` / `{4=…}` read as a number (an int32 with room for spaces), so runs of them stay linear. */
const MAX_NUMBER_MARKER = 64;

/** The token a `{3=…}` / `{4=…}` body stands for, or null when the body is not an int32. */
function numberMarkerToken(marker: 3 | 4, body: string): { type: 0 | 2; value: string } | null {
  const int = parseInt32(trimSpace(body));
  if (int === null) return null;
  if (marker === 3) return { type: 0, value: String(int) };
  return { type: 2, value: formatFloat32(float32FromBits(int)) };
}

/** `<` + optional sign + digits + `::` (the head of a link), as a sticky pattern. */
const LINK_HEAD = /<([+-]?[0-9]+)::/y;

/** The last key scan of a text: the first key end at or after `from` is `end` (so no text is scanned twice). */
interface KeyScan {
  from: number;
  end: number;
}

/**
 * The link `<id::key`text`>` at `start`, or null. The key runs to the first backtick, `>`, tab or line
 * break; `scan` remembers the last such search, so lines full of `<0::a ` stay linear.
 */
function readLink(text: string, start: number, scan: KeyScan): { value: string; next: number } | null {
  LINK_HEAD.lastIndex = start;
  const head = LINK_HEAD.exec(text);
  if (head === null) return null;
  const id = parseInt32(head[1] as string);
  const keyStart = start + head[0].length;
  if (!(scan.from <= keyStart && keyStart <= scan.end)) {
    let end = keyStart;
    while (end < text.length && !endsKey(text.charCodeAt(end))) end++;
    scan.from = keyStart;
    scan.end = end;
  }
  const keyEnd = scan.end;
  if (id === null || keyEnd === keyStart || text.charCodeAt(keyEnd) !== BACKTICK) return null;
  const { next, terminated } = readBacktickString(text, keyEnd);
  if (!terminated || text.charCodeAt(next) !== GREATER_THAN) return null;
  return { value: `<${id}::${text.slice(keyStart, keyEnd)}>`, next: next + 1 };
}

/** A backtick, `>`, tab, `\n` or `\r`: what ends a link key. */
function endsKey(code: number): boolean {
  return code === BACKTICK || code === GREATER_THAN || code === 0x09 || code === 0x0a || code === 0x0d;
}
