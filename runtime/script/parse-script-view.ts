/**
 * The script view of rule-format §3.4/§3.5: sections (with nesting) and the direct value tokens of each
 * section occurrence, with UTF-16 spans into the normalised text.
 *
 * Structure rules (pvfine's `ParseScriptView`, plus the nested-section rule of §3.5):
 * - a section name is *paired* when a closing tag with exactly that name (case-sensitive) appears
 *   anywhere in the file; every opening of a paired name lasts until its closing tag, while an unpaired
 *   (legacy) section lasts until the next tag;
 * - an opening tag first pops the unpaired sections on top of the stack, except that an unpaired
 *   section stays (and the new one nests inside it) when `allowNested(parentName, childName)` says so;
 *   the new section is a child of whatever is then on top;
 * - a closing tag pops the unpaired sections on top, then closes the nearest open paired section of
 *   that exact name (and everything above it); tokens after `[/child]` count for the parent again.
 */
import { IntColumn, trimColumn } from './int-column.js';
import { createLexer, type LexSink, type ScriptTokenType, type ScriptWarning, type ScriptWarningCode } from './lex-script.js';
import { runSteps } from './run-steps.js';

/**
 * The sections of a view as columns, indexed by section id (1…count); slot 0 stands for "before any
 * section" (name "", parent 0, depth -1, no tokens).
 */
export interface SectionColumns {
  /** The name as written (case and spaces kept). */
  name: string[];
  /** Span of the opening tag, brackets included. */
  start: Int32Array;
  end: Int32Array;
  /** Enclosing section's id; 0 at top level. */
  parent: Int32Array;
  /** 0 at top level. */
  depth: Int32Array;
  /** 1 when the name has a closing tag somewhere in the file. */
  paired: Uint8Array;
  /** 0-based ordinal among all sections of the same name (compared case-insensitively), in text order. */
  occurrence: Int32Array;
  /** Number of direct tokens (tokens of child sections excluded). */
  tokenCount: Int32Array;
  /** The section's folded name as an index into `foldedNames` (slot 0: -1). */
  nameKey: Int32Array;
  /** Each distinct folded name once, in order of first appearance. */
  foldedNames: string[];
}

/** The value tokens of a view as columns, in text order. */
export interface TokenColumns {
  start: Int32Array;
  end: Int32Array;
  /** Enclosing (innermost) section; 0 before any section. */
  section: Int32Array;
  /** Ordinal among the direct tokens of that section occurrence; -1 before any section. */
  index: Int32Array;
  type: Uint8Array;
  /**
   * Canonical value (lex-script.ts); undefined where the span holds it: a plain integer (type 0, the
   * span's text) or a backtick string without doubled backticks (type 6, the span without its
   * backticks). Those are most tokens of real scripts: not storing them saves a string each, which
   * the young generation would copy and the old one keep. Read values with tokenValue.
   */
  value: (string | undefined)[];
}

export interface ScriptView {
  /** The text the offsets refer to (callers pass normalised text). */
  text: string;
  sectionCount: number;
  sections: SectionColumns;
  tokenCount: number;
  tokens: TokenColumns;
  /** Lexer and structure problems, by position: the first MAX_VIEW_WARNINGS of them. */
  warnings: ScriptWarning[];
  /** How many problems there are in all. */
  warningCount: number;
}

/**
 * Problems a view keeps (decision, issue 15): a hostile text can have one per character (a file of
 * `[`), and explain shows the first hundred; the count of the rest is kept.
 */
export const MAX_VIEW_WARNINGS = 1000;

/** One section as a record (for callers that look at a few). */
export interface ScriptSection {
  /** 1, 2, 3… in order of opening tags. */
  id: number;
  name: string;
  start: number;
  end: number;
  /** Enclosing section, null at top level. */
  parentId: number | null;
  depth: number;
  paired: boolean;
  occurrence: number;
  tokenCount: number;
}

/** One value token as a record (for callers that look at a few). */
export interface ScriptTokenElement {
  sectionId: number;
  /** Its section's name as written; "" before any section. */
  sectionName: string;
  index: number;
  start: number;
  end: number;
  type: ScriptTokenType;
  value: string;
}

/** Whether a section named `child` may open inside the unpaired section `parent` (§3.5). */
export type AllowNested = (parent: string, child: string) => boolean;

/**
 * Section names compare case-insensitively everywhere (rules, rendering rules, occurrences). pvfine
 * uses Go's `strings.EqualFold`; lower-casing agrees with it for every name that is not made of rare
 * fold-only letters such as U+017F (ſ).
 */
export function foldSectionName(name: string): string {
  return name.toLowerCase();
}

/**
 * Parses normalised script text into its view. Never throws. Without `allowNested` no section nests
 * inside an unpaired one (plain `ParseScriptView`).
 */
export function parseScriptView(text: string, allowNested?: AllowNested): ScriptView {
  return runSteps(parseScriptViewSteps(text, allowNested));
}

/**
 * The same parse, yielding every VIEW_STEP_UNITS of text lexed, so a caller can give the thread to
 * other requests while a large file is parsed.
 *
 * Pairing needs every closing tag before the first section is placed. The names after each `[/` of the
 * text are a superset of the closing tags' names (every closing tag starts with `[/`), so the text is
 * lexed once, straight into the view, with that guess; when a name of the guess is not a closing tag
 * after all (it sat in a string or comment) and a section of that name was opened, the view is made
 * again with the real names: one lexing pass to collect them, one to place.
 */
export function* parseScriptViewSteps(text: string, allowNested?: AllowNested, limits?: ViewLimits): Generator<void, ScriptView> {
  const guess = yield* closingTagGuess(text);
  if (guess !== null) {
    const built = new ViewBuilder(text, guess, allowNested, limits);
    yield* lexInSteps(text, built);
    if (!built.pairedByMistake()) return built.finish();
  }
  const names = new Set<string>();
  yield* lexInSteps(text, { open() {}, close: (name) => names.add(name), value() {}, plainInt() {}, plainString() {}, comment() {}, warning() {} });
  const built = new ViewBuilder(text, names, allowNested, limits);
  yield* lexInSteps(text, built);
  return built.finish();
}

const VIEW_STEP_UNITS = 256 * 1024;

/**
 * What a caller that holds views of untrusted size bounds: the distinct section names (each costs a
 * few map entries; a hostile text can have millions), with the error to throw past them.
 */
export interface ViewLimits {
  sectionNames: number;
  tooMany: () => Error;
}

function* lexInSteps(text: string, sink: LexSink): Generator<void, void> {
  const lexer = createLexer(text, sink);
  for (let offset = VIEW_STEP_UNITS; !lexer.lexUntil(offset); offset += VIEW_STEP_UNITS) yield;
  yield;
}

/**
 * The names after every `[/` up to the next `]` (one left-to-right scan: the next `]` is remembered),
 * or null when the guess would be costly to hold (very long or very many names): the caller then
 * collects the real names instead.
 */
function* closingTagGuess(text: string): Generator<void, Set<string> | null> {
  const names = new Set<string>();
  let close = -1;
  let pause = GUESS_STEP_UNITS;
  for (let at = text.indexOf('[/'); at >= 0; at = text.indexOf('[/', at + 2)) {
    if (at >= pause) {
      pause = at + GUESS_STEP_UNITS;
      yield;
    }
    if (close < at + 2) close = text.indexOf(']', at + 2);
    if (close < 0) break;
    if (close - at > MAX_GUESSED_NAME) return null;
    names.add(text.slice(at + 2, close));
    if (names.size > MAX_GUESSED_NAMES) return null;
  }
  return names;
}

const MAX_GUESSED_NAME = 1024;
/** Text searched for closing tags between two yields (the scan of a 32 Mi-unit text took 25-60 ms). */
const GUESS_STEP_UNITS = 4 * 1024 * 1024;
const MAX_GUESSED_NAMES = 4096;

/** Section `id` as a record; undefined for 0 or an id past the end. */
export function sectionAt(view: ScriptView, id: number): ScriptSection | undefined {
  if (id < 1 || id > view.sectionCount) return undefined;
  const s = view.sections;
  const parent = s.parent[id] as number;
  return {
    id,
    name: s.name[id] as string,
    start: s.start[id] as number,
    end: s.end[id] as number,
    parentId: parent === 0 ? null : parent,
    depth: s.depth[id] as number,
    paired: s.paired[id] === 1,
    occurrence: s.occurrence[id] as number,
    tokenCount: s.tokenCount[id] as number,
  };
}

/** The canonical value of token `i`. */
export function tokenValue(view: ScriptView, i: number): string {
  const stored = view.tokens.value[i];
  if (stored !== undefined) return stored;
  const { start, end, type } = view.tokens;
  return type[i] === 6 ? view.text.slice((start[i] as number) + 1, (end[i] as number) - 1) : view.text.slice(start[i], end[i]);
}

/**
 * What kind of token a value is, as an editor must write it back: `int` and `float` are different
 * token types of a compiled script although a float's canonical value can read as an integer (`1.0`
 * is `1`); `string` is a backtick string, `word` a bare word (or `[]`), `link` a classic string link
 * `<id::key`text`>`, `block` a `{N=…}` string (`{3=n}` / `{4=n}` are `int` / `float`).
 */
export const TOKEN_VALUE_TYPES = ['int', 'float', 'string', 'word', 'link', 'block'] as const;
export type TokenValueType = (typeof TOKEN_VALUE_TYPES)[number];

export function tokenValueType(view: ScriptView, i: number): TokenValueType {
  const type = view.tokens.type[i] as ScriptTokenType;
  if (type === 0) return 'int';
  if (type === 2) return 'float';
  if (type === 3) return 'word';
  const first = view.text.charCodeAt(view.tokens.start[i] as number);
  if (type === 6 && first === 0x60 /* ` */) return 'string';
  if (type === 8 && first === 0x3c /* < */) return 'link';
  return 'block';
}

/** Token `i` (0-based, text order) as a record; undefined past the end. */
export function tokenAt(view: ScriptView, i: number): ScriptTokenElement | undefined {
  if (i < 0 || i >= view.tokenCount) return undefined;
  const t = view.tokens;
  const section = t.section[i] as number;
  return {
    sectionId: section,
    sectionName: view.sections.name[section] as string,
    index: t.index[i] as number,
    start: t.start[i] as number,
    end: t.end[i] as number,
    type: t.type[i] as ScriptTokenType,
    value: tokenValue(view, i),
  };
}

/** Every section as a record, by id. */
export function listSections(view: ScriptView): ScriptSection[] {
  const out: ScriptSection[] = [];
  for (let id = 1; id <= view.sectionCount; id++) out.push(sectionAt(view, id) as ScriptSection);
  return out;
}

/** Every token as a record, in text order. */
export function listTokens(view: ScriptView): ScriptTokenElement[] {
  const out: ScriptTokenElement[] = [];
  for (let i = 0; i < view.tokenCount; i++) out.push(tokenAt(view, i) as ScriptTokenElement);
  return out;
}

/**
 * Names from the top-level section down to section `id` (pvfine's section path); [] for id 0. Derived
 * on demand: storing it per section would cost quadratic memory on deeply nested input.
 */
export function sectionPath(view: ScriptView, id: number): string[] {
  const names: string[] = [];
  for (let s = id >= 1 && id <= view.sectionCount ? id : 0; s !== 0; s = view.sections.parent[s] as number) names.push(view.sections.name[s] as string);
  return names.reverse();
}

// --- Internal helpers ---

/** The first MAX_VIEW_WARNINGS problems of one source (each comes in text order) and their count. */
class WarningList {
  readonly kept: ScriptWarning[] = [];
  count = 0;

  add(code: ScriptWarningCode, message: string, start: number, end: number): void {
    if (this.count++ < MAX_VIEW_WARNINGS) this.kept.push({ code, message, start, end });
  }
}

/** The structure rules of the file comment, applied to the lexemes as the lexer reads them. */
class ViewBuilder implements LexSink {
  private readonly names: string[] = [''];
  private readonly sectionStart = new IntColumn();
  private readonly sectionEnd = new IntColumn();
  private readonly parent = new IntColumn();
  private readonly depth = new IntColumn();
  private readonly paired = new IntColumn();
  private readonly occurrenceOf = new IntColumn();
  private readonly tokenCountOf = new IntColumn();
  // The token columns share one capacity: one check per token.
  private tokenCapacity: number;
  private tokenStart: Int32Array;
  private tokenEnd: Int32Array;
  private tokenSection: Int32Array;
  private tokenIndex: Int32Array;
  private tokenType: Uint8Array;
  /** Sized with the columns and written by index: a push per token was a tenth of the view's time. */
  private values: (string | undefined)[];
  private tokenCount = 0;
  /** Per name as written: the one copy kept, and its folded name's key. */
  private readonly spelled = new Map<string, { name: string; key: number }>();
  /** Per folded name: its key. */
  private readonly keys = new Map<string, number>();
  private readonly foldedNames: string[] = [];
  /** Sections seen so far per folded-name key (the next occurrence). */
  private readonly seen = new IntColumn();
  private readonly nameKey = new IntColumn();
  /** Open sections, innermost last. */
  private readonly stack: number[] = [];
  // Open paired sections per name, so a closing tag that matches nothing costs O(1), not O(depth).
  private readonly openPaired = new Map<string, number>();
  private readonly strays = new WarningList();
  private readonly lexed = new WarningList();
  /** Names of the closing tags read. */
  private readonly closed = new Set<string>();

  constructor(
    private readonly text: string,
    /** Names taken as paired: a superset of the closing tags' names, or exactly them. */
    private readonly pairedNames: ReadonlySet<string>,
    private readonly allowNested: AllowNested | undefined,
    private readonly limits: ViewLimits | undefined,
  ) {
    for (const column of [this.sectionStart, this.sectionEnd, this.parent, this.occurrenceOf, this.tokenCountOf, this.paired]) column.push(0);
    this.depth.push(-1);
    this.nameKey.push(-1);
    // About one token per 6 characters of script; the columns grow when there are more.
    const guess = Math.min(Math.max(1024, Math.ceil(text.length / 6)), 1 << 23);
    this.tokenCapacity = guess;
    this.tokenStart = new Int32Array(guess);
    this.tokenEnd = new Int32Array(guess);
    this.tokenSection = new Int32Array(guess);
    this.tokenIndex = new Int32Array(guess);
    this.tokenType = new Uint8Array(guess);
    this.values = new Array<string | undefined>(guess);
  }

  open(name: string, start: number, end: number): void {
    this.openSection(name, start, end);
  }

  close(name: string, start: number, end: number): void {
    this.closed.add(name);
    this.closeSection(name, start, end);
  }

  value(type: ScriptTokenType, value: string, start: number, end: number): void {
    this.token(type, value, start, end);
  }

  plainInt(start: number, end: number): void {
    this.token(0, undefined, start, end);
  }

  plainString(start: number, end: number): void {
    this.token(6, undefined, start, end);
  }

  private token(type: ScriptTokenType, value: string | undefined, start: number, end: number): void {
    const section = this.top();
    const t = this.tokenCount++;
    if (t === this.tokenCapacity) this.growTokens();
    this.tokenStart[t] = start;
    this.tokenEnd[t] = end;
    this.tokenSection[t] = section;
    if (section === 0) this.tokenIndex[t] = -1;
    else {
      const n = this.tokenCountOf.at(section);
      this.tokenIndex[t] = n;
      this.tokenCountOf.set(section, n + 1);
    }
    this.tokenType[t] = type;
    this.values[t] = value;
  }

  comment(): void {
    // The view has no use for comments.
  }

  warning(code: ScriptWarningCode, message: string, start: number, end: number): void {
    this.lexed.add(code, message, start, end);
  }

  /** Whether a section was taken as paired for a name no closing tag has (the guess was wrong for it). */
  pairedByMistake(): boolean {
    for (const name of this.pairedNames) if (!this.closed.has(name) && this.spelled.has(name)) return true;
    return false;
  }

  finish(): ScriptView {
    const unclosed = new WarningList();
    for (const id of this.stack) {
      if (this.paired.at(id) !== 1) continue;
      const name = this.names[id] as string;
      unclosed.add('UNCLOSED_SECTION', `section [${name}] is never closed by its [/${name}]; it runs to the end of the file`, this.sectionStart.at(id), this.sectionEnd.at(id));
    }
    const lexed = this.lexed;
    const warnings = [...lexed.kept, ...this.strays.kept, ...unclosed.kept].sort((a, b) => a.start - b.start || a.end - b.end).slice(0, MAX_VIEW_WARNINGS);
    const sectionCount = this.names.length - 1;
    const tokenCount = this.tokenCount;
    // Like trimColumn: a copy without the spare room unless the guess was close.
    const values = tokenCount >= this.values.length * 0.875 ? this.values : this.values.slice(0, tokenCount);
    values.length = tokenCount;
    return {
      text: this.text,
      sectionCount,
      sections: {
        name: this.names,
        start: this.sectionStart.finish(),
        end: this.sectionEnd.finish(),
        parent: this.parent.finish(),
        depth: this.depth.finish(),
        paired: Uint8Array.from(this.paired.finish()),
        occurrence: this.occurrenceOf.finish(),
        tokenCount: this.tokenCountOf.finish(),
        nameKey: this.nameKey.finish(),
        foldedNames: this.foldedNames,
      },
      tokenCount,
      tokens: {
        start: trimColumn(this.tokenStart, tokenCount),
        end: trimColumn(this.tokenEnd, tokenCount),
        section: trimColumn(this.tokenSection, tokenCount),
        index: trimColumn(this.tokenIndex, tokenCount),
        type: trimColumn(this.tokenType, tokenCount),
        value: values,
      },
      warnings,
      warningCount: lexed.count + this.strays.count + unclosed.count,
    };
  }

  private growTokens(): void {
    const capacity = this.tokenCapacity * 2;
    const grown = <T extends Int32Array | Uint8Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.tokenStart = grown(this.tokenStart, new Int32Array(capacity));
    this.tokenEnd = grown(this.tokenEnd, new Int32Array(capacity));
    this.tokenSection = grown(this.tokenSection, new Int32Array(capacity));
    this.tokenIndex = grown(this.tokenIndex, new Int32Array(capacity));
    this.tokenType = grown(this.tokenType, new Uint8Array(capacity));
    this.values.length = capacity;
    this.tokenCapacity = capacity;
  }

  private top(): number {
    return this.stack.length === 0 ? 0 : (this.stack[this.stack.length - 1] as number);
  }

  private pop(): void {
    const id = this.stack.pop();
    if (id !== undefined && this.paired.at(id) === 1) {
      const name = this.names[id] as string;
      this.openPaired.set(name, (this.openPaired.get(name) ?? 1) - 1);
    }
  }

  private openSection(written: string, start: number, end: number): void {
    const { name, key } = this.spelling(written);
    for (let t = this.top(); t !== 0 && this.paired.at(t) !== 1 && !(this.allowNested?.(this.names[t] as string, name) ?? false); t = this.top()) this.pop();
    const parent = this.top();
    const occurrence = this.seen.at(key);
    this.seen.set(key, occurrence + 1);
    this.nameKey.push(key);
    const id = this.names.length;
    const paired = this.pairedNames.has(name);
    this.names.push(name);
    this.sectionStart.push(start);
    this.sectionEnd.push(end);
    this.parent.push(parent);
    this.depth.push(parent === 0 ? 0 : this.depth.at(parent) + 1);
    this.paired.push(paired ? 1 : 0);
    this.occurrenceOf.push(occurrence);
    this.tokenCountOf.push(0);
    this.stack.push(id);
    if (paired) this.openPaired.set(name, (this.openPaired.get(name) ?? 0) + 1);
  }

  /**
   * One string per spelling (sections of one name share it, so a file of 100 000 `[name]` keeps one) and
   * one fold per spelling.
   */
  private spelling(written: string): { name: string; key: number } {
    let found = this.spelled.get(written);
    if (found === undefined) {
      const folded = foldSectionName(written);
      let key = this.keys.get(folded);
      if (key === undefined) {
        key = this.foldedNames.length;
        this.keys.set(folded, key);
        this.foldedNames.push(folded);
        this.seen.push(0);
      }
      found = { name: written, key };
      this.spelled.set(written, found);
      if (this.limits !== undefined && this.spelled.size > this.limits.sectionNames) throw this.limits.tooMany();
    }
    return found;
  }

  private closeSection(name: string, start: number, end: number): void {
    for (let t = this.top(); t !== 0 && this.paired.at(t) !== 1; t = this.top()) this.pop();
    if ((this.openPaired.get(name) ?? 0) > 0) {
      // Close the nearest open section of that name and everything opened inside it.
      for (let t = this.top(); t !== 0; t = this.top()) {
        this.pop();
        if (this.names[t] === name) break;
      }
    } else {
      this.strays.add('STRAY_CLOSING_TAG', `closing tag [/${name}] does not close any open section [${name}]`, start, end);
    }
  }
}
