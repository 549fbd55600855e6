import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RenderingRule } from '../../../runtime/bundle/schema.js';
import { createNestedSectionPredicate } from '../../../runtime/explain/nested-sections.js';
import { listSections, listTokens, MAX_VIEW_WARNINGS, parseScriptView, sectionPath, tokenValue, tokenValueType, type ScriptView } from '../../../runtime/script/parse-script-view.js';

/** Each token as `section#id:index=value`. */
function tokensOf(view: ScriptView): string[] {
  return listTokens(view).map((t) => `${t.sectionName}#${t.sectionId}:${t.index}=${t.value}`);
}

describe('parseScriptView: sections and direct tokens', () => {
  it('gives tokens before any section section id 0 and index -1', () => {
    const view = parseScriptView('7 [a] 1 2');
    expect(tokensOf(view)).toEqual(['#0:-1=7', 'a#1:0=1', 'a#1:1=2']);
  });

  it('numbers sections 1..n with the span of the opening tag, as written', () => {
    const view = parseScriptView('[Name]\n`x`\n[rarity]\n4');
    expect(listSections(view).map((s) => [s.id, s.name, s.start, s.end, s.parentId, s.depth, s.paired])).toEqual([
      [1, 'Name', 0, 6, null, 0, false],
      [2, 'rarity', 11, 19, null, 0, false],
    ]);
  });

  it('counts occurrences of same-name sections case-insensitively, each with its own token indexes', () => {
    const view = parseScriptView('[rarity] 1 [name] x [RARITY] 2 3 [rarity] 4');
    expect(listSections(view).map((s) => `${s.name}:${s.occurrence}:${s.tokenCount}`)).toEqual(['rarity:0:1', 'name:0:1', 'RARITY:1:2', 'rarity:2:1']);
    expect(tokensOf(view)).toEqual(['rarity#1:0=1', 'name#2:0=x', 'RARITY#3:0=2', 'RARITY#3:1=3', 'rarity#4:0=4']);
  });

  it('nests a paired child and resumes the parent after [/child] (§3.4 example)', () => {
    const view = parseScriptView('[parent] 1 [child] 2 [/child] 3 [/parent]');
    expect(tokensOf(view)).toEqual(['parent#1:0=1', 'child#2:0=2', 'parent#1:1=3']);
    expect(listSections(view).map((s) => [s.name, s.parentId, s.depth, sectionPath(view, s.id)])).toEqual([
      ['parent', null, 0, ['parent']],
      ['child', 1, 1, ['parent', 'child']],
    ]);
    expect(sectionPath(view, 0)).toEqual([]);
    expect(view.warnings).toEqual([]);
  });

  it('pairs by exact name: a closing tag in another case leaves the section unpaired', () => {
    const view = parseScriptView('[a] 1 [b] 2 [/A]');
    expect(listSections(view).map((s) => [s.name, s.paired, s.parentId])).toEqual([
      ['a', false, null],
      ['b', false, null],
    ]);
    expect(view.warnings.map((w) => w.code)).toEqual(['STRAY_CLOSING_TAG']);
  });

  it('lets an unpaired section last only until the next tag, even a closing one', () => {
    const view = parseScriptView('[p] [u] 1 [/p] 2');
    expect(tokensOf(view)).toEqual(['u#2:0=1', '#0:-1=2']);
    expect(listSections(view)[1]?.parentId).toBe(1);
  });

  it('treats a closing tag that appears before its opening as pairing the name', () => {
    const view = parseScriptView('[/a] [a] 1 [b] 2');
    expect(listSections(view).map((s) => [s.name, s.paired, s.parentId])).toEqual([
      ['a', true, null],
      ['b', false, 1],
    ]);
    expect(view.warnings.map((w) => [w.code, w.start])).toEqual([
      ['STRAY_CLOSING_TAG', 0],
      ['UNCLOSED_SECTION', 5],
    ]);
  });

  it('passes lexer warnings through, sorted by position', () => {
    const view = parseScriptView('[/x] [a 1 `open');
    expect(view.warnings.map((w) => w.code)).toEqual(['STRAY_CLOSING_TAG', 'UNCLOSED_TAG', 'UNTERMINATED_STRING']);
  });
});

describe('tokenValueType', () => {
  it('tells how each token is written, whatever its canonical value reads like', () => {
    const text = '[x]\n\t1\t1.0\t-0.50\t{3=7}\t{4=-2147483648}\t`a`\tword\t[]\t<3::key`text`>\t{5=`s`}\t{6=`c`}\t{8=`d`}\t{10=`k`}\n';
    const view = parseScriptView(text);
    const shown = Array.from({ length: view.tokenCount }, (_, i) => `${tokenValue(view, i)}:${tokenValueType(view, i)}`);
    expect(shown).toEqual(['1:int', '1:float', '-0.5:float', '7:int', '-0:float', 'a:string', 'word:word', '[]:word', '<3::key>:link', 's:block', 'c:block', 'd:block', 'k:block']);
  });
});

describe('parseScriptView: nested sections in unpaired parents (§3.5)', () => {
  const allowList = (parent: string, child: string) => parent === 'independent drop' && child === 'list';

  it('keeps counting the unpaired parent after the nested child closes: 17 + 34 = 51 direct tokens', () => {
    const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i)).join(' ');
    const text = `[independent drop]\n${ids(1000, 17)}\n[list]\n1 2 3 4\n[/list]\n${ids(2000, 34)}\n[next]\n9`;
    const view = parseScriptView(text, allowList);
    const drop = listSections(view)[0];
    expect(drop?.tokenCount).toBe(51);
    expect(listSections(view).map((s) => [s.name, s.parentId, s.tokenCount])).toEqual([
      ['independent drop', null, 51],
      ['list', 1, 4],
      ['next', null, 1],
    ]);
    expect(listTokens(view).filter((t) => t.sectionId === 1).at(-1)).toMatchObject({ index: 50, value: '2033' });
  });

  it('without the predicate the child pops the unpaired parent (plain ParseScriptView)', () => {
    const view = parseScriptView('[independent drop] 1 [list] 2 [/list] 3', undefined);
    expect(tokensOf(view)).toEqual(['independent drop#1:0=1', 'list#2:0=2', '#0:-1=3']);
  });

  it('nests several levels deep when each level allows the next', () => {
    const allow = (parent: string, child: string) => (parent === 'a' && child === 'b') || (parent === 'b' && child === 'c');
    const view = parseScriptView('[a] 1 [b] 2 [c] 3 [/c] 4 [d] 5', allow);
    expect(tokensOf(view)).toEqual(['a#1:0=1', 'b#2:0=2', 'c#3:0=3', 'b#2:1=4', 'd#4:0=5']);
    expect(listSections(view).map((s) => s.depth)).toEqual([0, 1, 2, 0]);
  });
});

describe('createNestedSectionPredicate', () => {
  function rule(id: string, partial: { extensions?: string[]; glob?: string; section: string; nested: string[] | null; status?: RenderingRule['status'] }): RenderingRule {
    return {
      id,
      layer: 'l',
      layerIndex: 0,
      status: partial.status ?? 'effective',
      statusReason: null,
      description: '',
      match: { extensions: partial.extensions ?? [], glob: partial.glob ?? '' },
      target: { kind: 'section', section: partial.section },
      format: { tokensPerLine: 2, offset: null, tokensPerLineIndex: null, standaloneValues: null, nestedSections: partial.nested },
    };
  }

  it('answers from the section rule for the parent, case-insensitively', () => {
    const allow = createNestedSectionPredicate([rule('r', { section: 'Independent Drop', nested: ['LIST'] })], 'etc/a.etc');
    expect(allow('independent drop', 'list')).toBe(true);
    expect(allow('INDEPENDENT DROP', 'List')).toBe(true);
    expect(allow('independent drop', 'other')).toBe(false);
    expect(allow('list', 'independent drop')).toBe(false);
  });

  it('lets the most specific matching rule win: extensions and glob each add one', () => {
    const rules = [
      rule('glob+ext', { glob: 'etc/**', extensions: ['.etc'], section: 'drop', nested: ['a'] }),
      rule('ext', { extensions: ['.etc'], section: 'drop', nested: ['b'] }),
      rule('any', { section: 'drop', nested: ['c'] }),
    ];
    const inEtc = createNestedSectionPredicate(rules, 'etc/x.etc');
    expect([inEtc('drop', 'a'), inEtc('drop', 'b'), inEtc('drop', 'c')]).toEqual([true, false, false]);
    const elsewhere = createNestedSectionPredicate(rules, 'monster/x.etc');
    expect([elsewhere('drop', 'a'), elsewhere('drop', 'b'), elsewhere('drop', 'c')]).toEqual([false, true, false]);
    const otherExtension = createNestedSectionPredicate(rules, 'monster/x.mob');
    expect([otherExtension('drop', 'a'), otherExtension('drop', 'b'), otherExtension('drop', 'c')]).toEqual([false, false, true]);
  });

  it('gives ties to the later rule, even when the later rule lists nothing', () => {
    const listing = rule('first', { section: 'drop', nested: ['list'] });
    const silent = rule('second', { section: 'drop', nested: null });
    expect(createNestedSectionPredicate([listing, silent], 'a.etc')('drop', 'list')).toBe(false);
    expect(createNestedSectionPredicate([silent, listing], 'a.etc')('drop', 'list')).toBe(true);
  });

  it('ignores file rules and rules that are not effective', () => {
    const fileRule: RenderingRule = { ...rule('file', { section: 'drop', nested: ['list'] }), target: { kind: 'file', section: null } };
    const disabled = rule('off', { section: 'drop', nested: ['list'], status: 'disabled' });
    expect(createNestedSectionPredicate([fileRule, disabled], 'a.etc')('drop', 'list')).toBe(false);
  });
});

describe('parseScriptView: paired names from one lexing pass', () => {
  it('does not pair a name whose closing tag sits only inside a string or comment', () => {
    for (const text of ['[a] 1 `[/a]` [b] 2', '[a] 1 # [/a]\n[b] 2', '[a] 1 {5=`[/a]`} [b] 2']) {
      const view = parseScriptView(text);
      expect(listSections(view).map((s) => [s.name, s.paired, s.parentId])).toEqual([
        ['a', false, null],
        ['b', false, null],
      ]);
    }
  });

  it('pairs the same names whether the closing names are guessed or collected (long and many names)', () => {
    const long = 'x'.repeat(2000);
    const many = Array.from({ length: 5000 }, (_, i) => `[/n${i}]`).join(' ');
    for (const text of [`[${long}] [b] 1 [/${long}] 2`, `[n1] [b] 1 ${many} 2`]) {
      const view = parseScriptView(text);
      expect(listSections(view).map((s) => [s.paired, s.parentId])).toEqual([
        [true, null],
        [false, 1],
      ]);
      expect(listTokens(view).map((t) => [t.value, t.sectionId])).toEqual([
        ['1', 2],
        ['2', 0],
      ]);
    }
  });
});

describe('parseScriptView: robustness', () => {
  it('handles 50 000 nested paired sections in linear memory', () => {
    const view = parseScriptView(`${'[a] 1 '.repeat(50_000)}[/a]`);
    expect(listSections(view)).toHaveLength(50_000);
    expect(listSections(view).at(-1)?.depth).toBe(49_999);
    // Every problem is counted; the first MAX_VIEW_WARNINGS are kept, in text order.
    expect(view.warningCount).toBe(49_999);
    expect(view.warnings).toHaveLength(MAX_VIEW_WARNINGS);
    expect(view.warnings.every((w) => w.code === 'UNCLOSED_SECTION')).toBe(true);
    expect(view.warnings.map((w) => w.start)).toEqual(listSections(view).slice(0, MAX_VIEW_WARNINGS).map((s) => s.start));
  });

  it('handles many stray closing tags under a deep stack', () => {
    const view = parseScriptView(`${'[a] '.repeat(50_000)}${'[/b] '.repeat(50_000)}[/a]`);
    // 50 000 stray closing tags, and the 49 999 [a] that [/a] leaves open (kept first: they come first).
    expect(view.warningCount).toBe(99_999);
    expect(view.warnings).toHaveLength(MAX_VIEW_WARNINGS);
    const strays = parseScriptView(`[a] ${'[/b] '.repeat(50_000)}[/a]`);
    expect([strays.warningCount, strays.warnings.length, strays.warnings.every((w) => w.code === 'STRAY_CLOSING_TAG')]).toEqual([50_000, MAX_VIEW_WARNINGS, true]);
  });

  it('never throws and keeps every section token indexed 0..n-1 in text order', () => {
    const unit = fc.constantFrom('[a]', '[/a]', '[b]', '[/b]', '[A]', '[]', '[/]', '[', ']', '1', 'x', '`s`', '`', ' ', '\n', '{5=`t`}', '😀');
    const allow = (parent: string, child: string) => parent === 'a' && child === 'b';
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), fc.boolean(), (text, nested) => {
        const view = parseScriptView(text, nested ? allow : undefined);
        const next = new Map<number, number>();
        for (const token of listTokens(view)) {
          const expected = token.sectionId === 0 ? -1 : (next.get(token.sectionId) ?? 0);
          expect(token.index).toBe(expected);
          if (token.sectionId !== 0) next.set(token.sectionId, expected + 1);
        }
        for (const section of listSections(view)) expect(section.tokenCount).toBe(next.get(section.id) ?? 0);
      }),
      { numRuns: 500 },
    );
  });
});
