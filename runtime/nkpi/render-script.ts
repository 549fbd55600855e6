/**
 * Script payloads of the nkpi family (pvf-nkpi-format §10) rendered as pvfine's text dialect (§11.1,
 * §11.2). A payload (DataType 1) is `floor(len/5)` records of `u8 type` + `i32 value`, no header, no
 * terminator; a remainder of 1–4 bytes is ignored (as pvfine does).
 *
 * | type | value | text |
 * |---|---|---|
 * | 0 | int32 | decimal |
 * | 2 | float32 bits | Go's shortest `%g`, `.0` appended when it has no `.`/`e`/`n` |
 * | 3 | pool offset | the word verbatim on its own line (a section tag `[x]` / `[/x]` or a bare word) |
 * | 6 | pool offset | `` `text` `` inline |
 * | 5, 7, 8, 10 | pool offset | ``{N=`text`}`` on its own line |
 * | 1, 4, 9, ≥11 | ? | dropped (pvfine drops them); counted in `dropped` |
 *
 * Backticks inside strings are doubled. Layout never changes token values: explain re-lexes this text
 * into the same tokens (pvfine's lexer, runtime/script/lex-script.ts).
 */
import { MAX_DECOMPILED_UNITS, MAX_INDENT } from '../script/script-text-limits.js';
import { PvfdocError } from '../errors.js';
import { extensionOf } from '../script/archive-path.js';
import { formatFloat32 } from '../script/canonical-number.js';
import { foldSectionName } from '../script/parse-script-view.js';
import { float32FromBits } from '../script/script-float.js';
import { nkpiFileError } from './nkpi-error.js';

const NkpiTokenType = {
  Int: 0,
  Float: 2,
  Word: 3,
  Block5: 5,
  String: 6,
  Block7: 7,
  Placeholder: 8,
  Command: 10,
} as const;

export interface NkpiTokens {
  count: number;
  types: Uint8Array;
  values: Int32Array;
}

/** Token records of a type-1 payload (never throws; types are checked when rendered). */
export function readNkpiTokens(bytes: Uint8Array): NkpiTokens {
  const count = Math.floor(bytes.length / 5);
  const types = new Uint8Array(count);
  const values = new Int32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < count; i++) {
    types[i] = bytes[5 * i] as number;
    values[i] = view.getInt32(5 * i + 1, true);
  }
  return { count, types, values };
}

/** Float text of §11.2: Go `FormatFloat(f, 'g', -1, 32)`, then `.0` when none of `.eEnN` occurs. */
export function formatNkpiFloat(bits: number): string {
  const text = formatFloat32(float32FromBits(bits));
  return /[.eEnN]/.test(text) ? text : `${text}.0`;
}

/** One layout rule (a pvfine `rendering.json` format): line wrapping only. */
interface RenderRule {
  /** Values per line (> 0). */
  tokensPerLine: number;
  /** The first `offset` values each sit on their own line. */
  offset?: number;
  /** Section rules: the value at this index (a positive int) overrides tokensPerLine. */
  tokensPerLineIndex?: number;
  /** Integer values that sit alone on their line and restart the count. */
  standaloneValues?: readonly number[];
}

export interface RenderRules {
  /** The file-level rule of an archive path (pvfine: `.lst` files). */
  file(path: string): RenderRule | null;
  /** The rule of a section name (without brackets; matched case-insensitively by the default rules). */
  section(name: string): RenderRule | null;
}

/**
 * pvfine's default rendering rules (newest `config/rendering.json`, §11.1): `.lst` 2 per line at
 * top-level indent 0; `[skill data up]` 7; `[skill levelup]` 3; `[skill]` 7 after 1; `[level info]`
 * width from value 0 after 1; `[input item]` and `[output item]` 2.
 */
export const PVFINE_RENDER_RULES: RenderRules = sectionRules(
  { '.lst': { tokensPerLine: 2 } },
  {
    'skill data up': { tokensPerLine: 7 },
    'skill levelup': { tokensPerLine: 3 },
    skill: { tokensPerLine: 7, offset: 1 },
    'level info': { tokensPerLine: 1, offset: 1, tokensPerLineIndex: 0 },
    'input item': { tokensPerLine: 2 },
    'output item': { tokensPerLine: 2 },
  },
);

/** Rules from an extension → rule map and a section name → rule map (names compared lower-cased). */
export function sectionRules(files: Record<string, RenderRule>, sections: Record<string, RenderRule>): RenderRules {
  const byExtension = new Map(Object.entries(files).map(([ext, rule]) => [ext.toLowerCase(), rule]));
  const bySection = new Map(Object.entries(sections).map(([name, rule]) => [foldSectionName(name), rule]));
  return {
    file(path) {
      const extension = extensionOf(path);
      return extension === '' ? null : (byExtension.get(extension) ?? null);
    },
    section: (name) => bySection.get(foldSectionName(name)) ?? null,
  };
}

interface RenderContext {
  /** Archive and file named in errors. */
  archive: string;
  path: string;
  /** The pool string of an offset ("" for negative), or null when it is out of range. */
  string(offset: number): string | null;
  /** Where an out-of-range offset points (for the error). */
  describeOffset(offset: number): string;
  rules?: RenderRules;
}

interface RenderedScript {
  text: string;
  /** Tokens of unknown types (1, 4, 9, ≥ 11) left out, as pvfine does. */
  dropped: number;
  /** Type and byte offset of the first dropped token. */
  firstDropped: { type: number; offset: number } | null;
}

interface RuleState {
  rule: RenderRule;
  /** Values so far in this scope. */
  count: number;
  /** Values on the current line of this scope. */
  onLine: number;
  width: number;
  /** The next value starts a new line (after an offset value or a standalone value). */
  breakNext: boolean;
}

interface Frame {
  name: string;
  /** Nothing but tags since the frame opened. */
  first: boolean;
  /** The paired section's own rule. */
  rule: RuleState | null;
  /** The rule of an unpaired section opened at this level, until the next tag at this level. */
  unpaired: RuleState | null;
}

function ruleState(rule: RenderRule | null): RuleState | null {
  return rule ? { rule, count: 0, onLine: 0, width: rule.tokensPerLine > 0 ? rule.tokensPerLine : 1, breakNext: false } : null;
}

/** Whether `s` is a tag: `[x]` with x non-empty and not just `/`. */
function tagName(s: string): string | null {
  if (s.length < 3 || s.charCodeAt(0) !== 0x5b || s.charCodeAt(s.length - 1) !== 0x5d) return null;
  const x = s.slice(1, -1);
  return x === '/' ? null : x;
}

/** Renders a token stream as pvfine text. INVALID_ARCHIVE for a pool offset out of range. */
export function renderNkpiScript(tokens: NkpiTokens, context: RenderContext): RenderedScript {
  const { count, types, values } = tokens;
  const rules = context.rules ?? PVFINE_RENDER_RULES;

  const stringAt = (i: number): string => {
    const offset = values[i] as number;
    const s = context.string(offset);
    if (s === null) {
      throw nkpiFileError(context.archive, context.path, `token ${i} (type ${types[i]}) at byte offset ${5 * i} refers to a string out of range: ${context.describeOffset(offset)}`, {
        offset: 5 * i,
        stringOffset: offset,
      });
    }
    return s;
  };

  // Pre-scan: names with a closing tag anywhere (case-sensitive); only those push frames.
  const strings = new Array<string | undefined>(count);
  const closed = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (types[i] !== NkpiTokenType.Word) continue;
    const s = stringAt(i);
    strings[i] = s;
    const x = tagName(s);
    if (x !== null && x.startsWith('/')) closed.add(x.slice(1));
  }

  const out: string[] = [];
  let units = 0;
  const emit = (piece: string): void => {
    units += piece.length;
    if (units > MAX_DECOMPILED_UNITS) {
      throw new PvfdocError('RESPONSE_TOO_LARGE', `${context.archive}: ${context.path}: its script text exceeds ${MAX_DECOMPILED_UNITS} characters`, {
        hint: 'This script is too large (or built to expand) to read through pvfdoc; open it with another tool.',
        data: { archive: context.archive, path: context.path, limit: MAX_DECOMPILED_UNITS },
      });
    }
    out.push(piece);
  };
  const tabs: string[] = [''];
  const indent = (depth: number): string => {
    const d = Math.min(depth, MAX_INDENT);
    while (tabs.length <= d) tabs.push(`${tabs[tabs.length - 1]}\t`);
    return tabs[d] as string;
  };

  const fileRule = rules.file(context.path);
  const frames: Frame[] = [{ name: '', first: false, rule: ruleState(fileRule), unpaired: null }];
  let atLineStart = true;
  let emitted = false;
  let topOpened = false;
  let dropped = 0;
  let firstDropped: RenderedScript['firstDropped'] = null;

  const line = (depth: number, s: string): void => {
    emit(`${atLineStart ? '' : '\n'}${indent(depth)}${s}\n`);
    atLineStart = true;
    emitted = true;
  };

  for (let i = 0; i < count; i++) {
    const type = types[i] as number;
    const top = frames[frames.length - 1] as Frame;
    if (type === NkpiTokenType.Word) {
      const s = strings[i] as string;
      const x = tagName(s);
      if (x === null) {
        line(frames.length - 1, s);
        continue;
      }
      // Any tag at this level ends an unpaired section's rule.
      top.unpaired = null;
      if (x.startsWith('/')) {
        const name = x.slice(1);
        for (let f = frames.length - 1; f >= 1; f--) {
          if ((frames[f] as Frame).name === name) {
            frames.length = f;
            break;
          }
        }
        line(frames.length - 1, s);
        continue;
      }
      top.first = false;
      const depth = frames.length - 1;
      if (depth === 0) {
        if (topOpened) {
          emit(atLineStart ? '\n' : '\n\n');
          atLineStart = true;
        }
        topOpened = true;
      }
      line(depth, s);
      const rule = rules.section(x);
      if (closed.has(x)) frames.push({ name: x, first: true, rule: ruleState(rule), unpaired: null });
      else top.unpaired = ruleState(rule);
      continue;
    }

    let text: string;
    let block = false;
    switch (type) {
      case NkpiTokenType.Int:
        text = String(values[i]);
        break;
      case NkpiTokenType.Float:
        text = formatNkpiFloat(values[i] as number);
        break;
      case NkpiTokenType.String:
        text = quote(stringAt(i));
        break;
      case NkpiTokenType.Block5:
      case NkpiTokenType.Block7:
      case NkpiTokenType.Placeholder:
      case NkpiTokenType.Command:
        text = `{${type}=${quote(stringAt(i))}}`;
        block = true;
        break;
      default:
        dropped++;
        firstDropped ??= { type, offset: 5 * i };
        continue;
    }

    const depth = frames.length - 1;
    const scope = top.unpaired ?? top.rule;
    const I = !emitted ? 0 : depth === 0 ? (fileRule ? 0 : 1) : top.first || scope ? depth : depth + 1;
    let newLine = block;
    let standalone = false;
    if (scope) {
      const { rule } = scope;
      const index = scope.count;
      const offset = rule.offset ?? 0;
      standalone = type === NkpiTokenType.Int && (rule.standaloneValues?.includes(values[i] as number) ?? false);
      if (index < offset || standalone || scope.breakNext || scope.onLine >= scope.width) newLine = true;
      scope.breakNext = index < offset || standalone;
    }
    if (atLineStart) emit(indent(I));
    else emit(newLine ? `\n${indent(I)}` : '\t');
    emit(text);
    const startedLine = atLineStart || newLine;
    atLineStart = false;
    emitted = true;
    top.first = false;
    if (scope) {
      scope.onLine = startedLine ? 1 : scope.onLine + 1;
      if (standalone) scope.onLine = scope.width;
      const k = scope.rule.tokensPerLineIndex;
      if (k !== undefined && scope.count === k && type === NkpiTokenType.Int && (values[i] as number) > 0) scope.width = values[i] as number;
      scope.count++;
    }
  }
  return { text: out.join(''), dropped, firstDropped };
}

function quote(s: string): string {
  return `\`${s.includes('`') ? s.replaceAll('`', '``') : s}\``;
}
