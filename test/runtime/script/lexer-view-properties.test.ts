/**
 * Property tests (fast-check) of the explain engine's text layer on arbitrary text — any code point,
 * lone surrogates, every kind of line end, script fragments mixed in (issue "Must show"):
 *
 * - normalisation never throws, leaves no CR, is idempotent, and CRLF on disk gives the LF text;
 * - the lexer and the script view never throw; every range lies inside the text; ranges are ordered
 *   (and token/comment ranges do not overlap); tags span exactly their text;
 * - the view's structure is consistent (ids, parents, depths, occurrences, direct token indexes);
 * - offset ↔ line/column round-trips both ways and agrees with counting `\n` by hand;
 * - a whole annotate pass on arbitrary text keeps the same guarantees for annotations and warnings.
 *
 * The example-based and script-shaped properties live next to each module's own tests
 * (lex-script, normalize-text, parse-script-view, annotate-script).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript } from '../../../runtime/explain/annotate-script.js';
import { lexScript } from '../../../runtime/script/lex-script.js';
import { createLineIndex, normalizeText } from '../../../runtime/script/normalize-text.js';
import { foldSectionName, listSections, listTokens, parseScriptView, type AllowNested } from '../../../runtime/script/parse-script-view.js';
import { layerBundle, WORKSPACE_LAYER } from '../workspace/helpers.js';

/** Fragments that drive the lexer into each of its branches, plus characters that are easy to mishandle. */
const scriptUnit = fc.constantFrom(
  '[',
  ']',
  '[/',
  '/',
  '`',
  '``',
  '{',
  '}',
  '{5=',
  '{6=',
  '{3=',
  '{4=',
  '{7=',
  '{8=',
  '{10=',
  '<',
  '>',
  '::',
  '<3::k`t`>',
  '<1::key>',
  '#',
  '\n',
  '\r',
  '\r\n',
  ' ',
  '\t',
  '\v',
  '\f',
  '-1',
  '+5',
  '007',
  '1.50',
  '1e39',
  'inf',
  'a',
  'X',
  '😀',
  '中',
  '\ud800',
  '\udc00',
  '\u3000',
  '\u00a0',
  '\ufeff',
  '\u0000',
  '[a]',
  '[/a]',
  '[B]',
  '[/b]',
  '[rarity]',
  '[skill levelup]',
);

/** Arbitrary text: any code point (lone surrogates included), script fragments, or both mixed. */
const arbitraryText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: scriptUnit, maxLength: 200 }),
  fc.string({ unit: fc.oneof(scriptUnit, fc.string({ unit: 'binary', minLength: 1, maxLength: 3 })), maxLength: 200 }),
);

/** A deterministic nesting predicate that says yes for some pairs. */
const someNesting: AllowNested = (parent, child) => (parent.length + 2 * child.length) % 3 === 0;

const RUNS = { numRuns: 400 };

/** Line and column of an offset by counting `\n` by hand. */
function naivePosition(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function expectInside(text: string, span: { start: number; end: number }, what: string): void {
  expect(Number.isInteger(span.start) && Number.isInteger(span.end), what).toBe(true);
  expect(span.start, what).toBeGreaterThanOrEqual(0);
  expect(span.end, what).toBeGreaterThanOrEqual(span.start);
  expect(span.end, what).toBeLessThanOrEqual(text.length);
}

describe('normalizeText on arbitrary text', () => {
  it('never throws, leaves no CR, is idempotent and equals CRLF → LF then CR → LF', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const once = normalizeText(raw);
        expect(once).not.toContain('\r');
        expect(normalizeText(once)).toBe(once);
        expect(once).toBe(raw.split('\r\n').join('\n').split('\r').join('\n'));
        expect(once.length).toBeLessThanOrEqual(raw.length);
      }),
      RUNS,
    );
  });

  it('gives the same text for a file saved with CRLF or with LF line ends', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const lf = raw.replaceAll('\r', '');
        expect(normalizeText(lf.replaceAll('\n', '\r\n'))).toBe(lf);
      }),
      RUNS,
    );
  });
});

describe('lexScript on arbitrary text', () => {
  it('never throws; token and comment ranges lie inside the text, are non-empty, ordered and disjoint', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const text = normalizeText(raw);
        const { tokens, comments, warnings } = lexScript(text);
        let last = 0;
        for (const span of [...tokens, ...comments].sort((a, b) => a.start - b.start)) {
          expectInside(text, span, 'token');
          expect(span.end).toBeGreaterThan(span.start);
          expect(span.start).toBeGreaterThanOrEqual(last);
          last = span.end;
        }
        // Tokens come out in text order.
        for (let i = 1; i < tokens.length; i++) expect(tokens[i]?.start).toBeGreaterThanOrEqual(tokens[i - 1]?.end ?? 0);
        for (const w of warnings) expectInside(text, w, `warning ${w.code}`);
        // Tags span exactly their bracketed text; comments start at '#' and stop before a line end.
        for (const t of tokens) {
          if (t.kind === 'open') expect(text.slice(t.start, t.end)).toBe(`[${t.name}]`);
          if (t.kind === 'close') expect(text.slice(t.start, t.end)).toBe(`[/${t.name}]`);
          // Strings start at their quote or block marker.
          if (t.kind === 'value' && (t.type === 5 || t.type === 7 || t.type === 10)) expect(text[t.start]).toBe('{');
          if (t.kind === 'value' && t.type === 6) expect(['`', '{']).toContain(text[t.start]);
        }
        for (const c of comments) {
          expect(text[c.start]).toBe('#');
          expect(text.slice(c.start, c.end)).not.toContain('\n');
        }
      }),
      RUNS,
    );
  });

  it('lexes a text the same whether it was saved with CRLF or LF', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const lf = raw.replaceAll('\r', '');
        expect(lexScript(normalizeText(lf.replaceAll('\n', '\r\n')))).toEqual(lexScript(lf));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseScriptView on arbitrary text', () => {
  it('never throws; sections, tokens and warnings are inside the text, ordered, and structurally consistent', () => {
    fc.assert(
      fc.property(arbitraryText, fc.boolean(), (raw, nested) => {
        const text = normalizeText(raw);
        const view = parseScriptView(text, nested ? someNesting : undefined);
        expect(view.text).toBe(text);
        const lexed = lexScript(text);

        // Sections: one per opening tag, ids 1..n in text order, spans of the tags.
        const opens = lexed.tokens.filter((t) => t.kind === 'open');
        expect(listSections(view).map((s) => [s.start, s.end, s.name])).toEqual(opens.map((t) => [t.start, t.end, t.kind === 'open' ? t.name : '']));
        const seen = new Map<string, number>();
        listSections(view).forEach((s, i) => {
          expect(s.id).toBe(i + 1);
          expectInside(text, s, 'section');
          if (i > 0) expect(s.start).toBeGreaterThanOrEqual(listSections(view)[i - 1]?.end ?? 0);
          if (s.parentId === null) {
            expect(s.depth).toBe(0);
          } else {
            expect(s.parentId).toBeLessThan(s.id);
            expect(s.depth).toBe((listSections(view)[s.parentId - 1]?.depth ?? -2) + 1);
          }
          const folded = foldSectionName(s.name);
          expect(s.occurrence).toBe(seen.get(folded) ?? 0);
          seen.set(folded, s.occurrence + 1);
        });

        // Tokens: exactly the lexer's values, in order, each with a valid section and direct index.
        const values = lexed.tokens.filter((t) => t.kind === 'value');
        expect(listTokens(view).map((t) => [t.start, t.end, t.value])).toEqual(values.map((t) => [t.start, t.end, t.kind === 'value' ? t.value : '']));
        const next = new Map<number, number>();
        for (const t of listTokens(view)) {
          expectInside(text, t, 'token');
          expect(t.sectionId).toBeGreaterThanOrEqual(0);
          expect(t.sectionId).toBeLessThanOrEqual(listSections(view).length);
          if (t.sectionId === 0) {
            expect([t.index, t.sectionName]).toEqual([-1, '']);
          } else {
            const section = listSections(view)[t.sectionId - 1];
            expect(t.sectionName).toBe(section?.name);
            expect(t.start).toBeGreaterThanOrEqual(section?.end ?? Infinity);
            expect(t.index).toBe(next.get(t.sectionId) ?? 0);
            next.set(t.sectionId, t.index + 1);
          }
        }
        for (const s of listSections(view)) expect(s.tokenCount).toBe(next.get(s.id) ?? 0);

        // Warnings: inside the text and sorted by position.
        view.warnings.forEach((w, i) => {
          expectInside(text, w, `warning ${w.code}`);
          if (i > 0) expect(w.start).toBeGreaterThanOrEqual(view.warnings[i - 1]?.start ?? 0);
        });
      }),
      RUNS,
    );
  });
});

describe('createLineIndex on arbitrary text', () => {
  it('round-trips every offset through its line/column and agrees with counting line ends', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const text = normalizeText(raw);
        const lines = createLineIndex(text);
        expect(lines.lineCount).toBe(text.split('\n').length);
        let previous = { line: 0, column: 0 };
        for (let offset = 0; offset <= text.length; offset++) {
          const position = lines.offsetToPosition(offset);
          expect(position).toEqual(naivePosition(text, offset));
          expect(lines.positionToOffset(position)).toBe(offset);
          // Positions increase with the offset (line first, then column).
          expect(position.line > previous.line || (position.line === previous.line && position.column > previous.column)).toBe(true);
          previous = position;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips every valid line/column through its offset', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const text = normalizeText(raw);
        const lines = createLineIndex(text);
        text.split('\n').forEach((line, i) => {
          for (let column = 1; column <= line.length + 1; column++) {
            const position = { line: i + 1, column };
            expect(lines.offsetToPosition(lines.positionToOffset(position))).toEqual(position);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('annotateScript on arbitrary text', () => {
  let bundle: Bundle;
  beforeAll(async () => {
    bundle = await layerBundle(WORKSPACE_LAYER);
  });

  it('never throws; annotation and warning ranges lie inside the text, ordered, with matching line/columns', () => {
    const filePaths = fc.constantFrom('equipment/a.equ', 'skill/fighter/a.skl', 'etc/a.lst', 'a');
    fc.assert(
      fc.property(arbitraryText, filePaths, fc.constantFrom('', '90US', '110US'), (raw, filePath, versionKey) => {
        const { view, annotations, warnings } = annotateScript({ bundle, versionKey, filePath, text: raw });
        const text = view.text;
        expect(text).toBe(normalizeText(raw));
        const lines = createLineIndex(text);
        annotations.forEach((a, i) => {
          expectInside(text, a.range, `annotation ${a.ruleIds.join()}`);
          expect(a.start).toEqual(lines.offsetToPosition(a.range.start));
          expect(a.end).toEqual(lines.offsetToPosition(a.range.end));
          const prev = annotations[i - 1];
          if (prev) expect(prev.range.start < a.range.start || (prev.range.start === a.range.start && prev.range.end < a.range.end)).toBe(true);
        });
        for (const w of warnings) {
          expectInside(text, w.range, `warning ${w.code}`);
          expect(w.start).toEqual(lines.offsetToPosition(w.range.start));
        }
      }),
      { numRuns: 300 },
    );
  });
});
