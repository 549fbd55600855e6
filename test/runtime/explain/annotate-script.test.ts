import fc from 'fast-check';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript, pathContext, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { explainBundle, formatGolden, GOLDEN_DIR, stubResolvePath, stubResolveReference } from './helpers.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await explainBundle();
});

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i));
/** A 17-token `[independent drop]` record: ordinal, monster id, item id, 14 fillers. */
const dropRecord = (n: number, monster: string, item: string) => [String(n), monster, item, ...ids(0, 14).map(() => '0')].join('\t');

interface GoldenCase {
  name: string;
  title: string;
  filePath: string;
  text: string;
  versionKey?: string;
}

const CASES: GoldenCase[] = [
  {
    name: 'positions',
    title: 'Chinese, emoji and CRLF: offsets and columns are UTF-16 units of the LF-normalised text',
    filePath: 'Equipment\\Character\\Sword.EQU',
    // CRLF input. After normalisation [name] is [0,6), the newline is offset 6 and the string `😀中`
    // is [7,12): the emoji counts 2 units and 中 one — pvfine's newest offsets, where CRLF counts 1.
    text: '[name]\r\n`😀中`\r\n\r\n[rarity]\r\n\t4\r\n\r\n[basic stats]\r\n\t`🗡️剑`\t10\t20\t30\r\n',
  },
  {
    name: 'duplicate-sections',
    title: 'every occurrence of a repeated section is annotated with its occurrence index',
    filePath: 'stackable/potion.stk',
    text: '[rarity]\n\t2\n[cool time]\n\t1000\n[rarity]\n\t4\n[cool time]\n\t2000\n[RARITY]\n\t9\n',
  },
  {
    name: 'nested-sections',
    title: 'a paired child section; its tokens are not direct tokens of the parent (§3.4)',
    filePath: 'etc/nested.etc',
    text: '[parent] 1 [child] 2 [/child] 3 [/parent]',
  },
  {
    name: 'independent-drop',
    title: 'an unpaired parent keeps counting after a nested [list] (§3.5): 17 + 34 direct tokens, 3 records',
    filePath: 'etc/itemdropinfo_monster_hell.etc',
    text: [
      '[independent drop]',
      `\t${dropRecord(0, '1001', '2001')}`,
      '\t[list]',
      '\t\t1\t2',
      '\t[/list]',
      `\t${dropRecord(1, '1002', '2002')}`,
      `\t${dropRecord(2, '1001', '2003')}`,
      '[next]',
      '\t5',
      '',
    ].join('\n'),
  },
  {
    name: 'world-drop',
    title: 'repeated records split at integer -1 sentinels, groupOffset 2 per group; a quoted `-1` is data',
    filePath: 'etc/worlddrop.etc',
    text: ['[world drop]', '\t1\t2', '\t2001\t5', '\t2002\t6', '\t-1', '\t7\t8', '\t`-1`\t9', '\t-1', '\t-1', '\t3\t4\t2003\t10', '\t-1.0\t11', '\t-1', ''].join('\n'),
  },
  {
    name: 'dynamic-width',
    title: 'record width from token 0 (tokensPerLineIndex), offset 1; fallback width 3 when token 0 is not a positive integer',
    filePath: 'skill/swordman/a.skl',
    text: ['[level info]', '\t2', '\t100\t200', '\t300\t400', '\t500', '[level info]', '\t3', '\t1\t2\t3', '\t4\t5', '[level info]', '\t`x`', '\t7\t8\t9', ''].join('\n'),
  },
  {
    name: 'enum-values',
    title: 'enum lookup by exact canonical value: 4, `4`, 4.0, +4 and 04 all read "4"; 9 and `史诗` are unknown',
    filePath: 'stackable/enum.stk',
    text: ['[rarity] 4', '[rarity] `4`', '[rarity] 4.0', '[rarity] +4', '[rarity] 04', '[rarity] 9', '[rarity] `史诗`', ''].join('\n'),
  },
  {
    name: 'merge',
    title: 'several rules on one span merge: first title and type win, every rule adds a block (§2.6)',
    filePath: 'equipment/character/sword.equ',
    text: '[rarity]\n\t4\n',
  },
  {
    name: 'references-images-paths',
    title: 'contextual references, images with their path token, path links',
    filePath: 'equipment/character/ring.equ',
    text: [
      '[skill levelup]',
      '\t`[fighter]`\t5\t1',
      '\t`[swordman]`\t9\t2',
      '\t`[mage]`\t5\t3',
      '[icon]',
      '\t`item/ring.img`\t12',
      '\t`  `\t3',
      '\t`item/ring.img`\t-1',
      '\t`item/frame%04d.img`\t2',
      '[equipment part set]',
      '\t1\t`set/a.equ`',
      '[equipment part set]',
      '\t2\t`/nothere.equ`',
      '',
    ].join('\n'),
  },
  {
    name: 'warnings',
    title: 'parse problems are kept as warnings with their positions; what parses is still explained',
    filePath: 'etc/broken.etc',
    text: ['[cool time]', '\t100', '[/cool time]', '[/nothing]', '[rarity', '\t2', '`unterminated', ''].join('\n'),
  },
  {
    name: 'unknown-version',
    title: 'the "" version context (unknown client) applies the unrestricted rules',
    filePath: 'equipment/character/sword.equ',
    text: '[name]\n\t`剑`\n',
    versionKey: '',
  },
];

describe('annotateScript goldens', () => {
  it.each(CASES)('explains the $name case like its golden file (test/golden/explain/<case>.explain.txt)', async (c) => {
    const versionKey = c.versionKey ?? '90US';
    const result = annotateScript({ bundle, versionKey, filePath: c.filePath, text: c.text, resolveReference: stubResolveReference, resolvePath: stubResolvePath });
    const golden = formatGolden({ title: c.title, filePath: c.filePath, versionKey, result, pathContext: pathContext(bundle, versionKey, c.filePath).map((p) => ({ ...p, content: bundle.documentsById.get(p.documentId)?.resolved.annotation.content.trim() ?? '' })) });
    await expect(golden).toMatchFileSnapshot(path.join(GOLDEN_DIR, `${c.name}.explain.txt`));
  });
});

describe('annotateScript', () => {
  function explain(filePath: string, text: string, extra: Partial<Parameters<typeof annotateScript>[0]> = {}): ExplainAnnotation[] {
    return annotateScript({ bundle, versionKey: '90US', filePath, text, ...extra }).annotations;
  }

  it('gives the §3.3 string token the range [7, 12) and columns 1..6 of line 2', () => {
    const [name] = explain('a.equ', '[name]\r\n`😀中`');
    expect(name).toMatchObject({ range: { start: 7, end: 12 }, start: { line: 2, column: 1 }, end: { line: 2, column: 6 }, value: '😀中', title: '名称' });
  });

  it('returns the rule content trimmed and the rule title as is for text rules', () => {
    const [name] = explain('a.equ', '[name] `x`');
    expect(name).toMatchObject({ title: '名称', content: '装备名称', type: 'text', origin: 'rule', ruleIds: ['name'] });
    expect(name?.documentIds).toHaveLength(1);
  });

  it('marks references unsupported when no resolver is given, keeping the rule title', () => {
    const [reference] = explain('etc/a.etc', '[world drop] 0 0 2001 5');
    expect(reference).toMatchObject({ title: '掉落物品', reference: { relation: '物品', id: '2001', context: null, name: null, path: null, resolutionStatus: 'unsupported' } });
  });

  it('keeps the rule title when resolved: the name is only in reference.name', () => {
    const resolved = explain('etc/a.etc', '[world drop] 0 0 2003 5 -1 0 0 2001 6', { resolveReference: stubResolveReference });
    expect(resolved.map((a) => [a.title, a.reference?.resolutionStatus, a.reference?.name])).toEqual([
      ['掉落物品', 'resolved', '无尽的永恒'],
      ['掉落物品', 'resolved', expect.anything()],
    ]);
  });

  it('passes the contextual relation default context token to the resolver', () => {
    const queries: unknown[] = [];
    explain('a.skl', '[skill levelup] `[fighter]` 5 1', {
      resolveReference: (q) => {
        queries.push(q);
        return { status: 'missing', name: null, path: null };
      },
    });
    expect(queries).toEqual([{ relation: '技能', id: '5', context: '[fighter]' }]);
  });

  it('marks path links unsupported without a path resolver', () => {
    const [link] = explain('a.equ', '[equipment part set] 1 `set/a.equ`');
    expect(link).toMatchObject({ title: '', type: 'path', pathLink: { root: 'equipment/', value: 'set/a.equ', path: 'equipment/set/a.equ', resolutionStatus: 'unsupported' } });
  });

  it('skips rules whose match does not fit the file and path rules', () => {
    expect(explain('a.stk', '[name] `x`')).toEqual([]);
    expect(explain('equipment/a.equ', '')).toEqual([]);
  });

  it('sorts by start, then end, across rules', () => {
    const spans = explain('a.equ', '[rarity] 4 [name] `n` [cool time] 1').map((a) => [a.range.start, a.range.end]);
    expect(spans).toEqual([...spans].sort((x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number)));
    expect(spans).toHaveLength(4);
  });

  it('rejects a version context the snapshot does not have', () => {
    expect(() => annotateScript({ bundle, versionKey: '70KR', filePath: 'a.equ', text: '' })).toThrowError(PvfdocError);
    try {
      annotateScript({ bundle, versionKey: '70KR', filePath: 'a.equ', text: '' });
    } catch (error) {
      expect((error as PvfdocError).code).toBe('INVALID_VERSION');
      expect((error as PvfdocError).data?.supportedVersions).toEqual(expect.arrayContaining(['', '90US', '90CN', '110US']));
    }
  });
});

describe('annotateScript: robustness', () => {
  it('never throws on script-like text and returns sorted, in-bounds, position-consistent items', () => {
    const unit = fc.constantFrom('[rarity]', '[world drop]', '[level info]', '[independent drop]', '[list]', '[/list]', '[icon]', '[name]', '-1', '2', '4', '`x`', '`', '[', '\r\n', '\n', ' ', '😀', '中');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (text) => {
        const { view, annotations, warnings } = annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/a.equ', text, resolveReference: stubResolveReference });
        const lines = view.text.split('\n');
        let previous = -1;
        for (const a of annotations) {
          expect(a.range.start).toBeGreaterThanOrEqual(previous);
          previous = a.range.start;
          expect(a.range.end).toBeLessThanOrEqual(view.text.length);
          const lineStart = lines.slice(0, a.start.line - 1).reduce((n, l) => n + l.length + 1, 0);
          expect(lineStart + a.start.column - 1).toBe(a.range.start);
        }
        for (const w of warnings) expect(w.range.end).toBeLessThanOrEqual(view.text.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pathContext', () => {
  it('lists the file first, then each ancestor folder outward, keeping the path spelling', () => {
    const entries = pathContext(bundle, '90US', '\\Equipment\\Character\\Sword.EQU');
    expect(entries.map((e) => [e.scopeKind, e.scopePath, e.ruleId])).toEqual([
      ['file', 'Equipment/Character/Sword.EQU', 'path.equipment'],
      ['file', 'Equipment/Character/Sword.EQU', 'path.equ-file'],
      ['directory', 'Equipment/Character', 'path.equipment'],
      ['directory', 'Equipment', 'path.equipment'],
    ]);
    expect(entries[0]).toMatchObject({ title: '装备目录' });
    // The note's text is its document's (sent once per page in explain's documents).
    expect(bundle.documentsById.get(entries[0]?.documentId ?? '')?.resolved.annotation.content).toBe('所有装备文件');
  });

  it('never applies extension rules to folders, even one named like a file', () => {
    expect(pathContext(bundle, '90US', 'equipment/odd.equ/x.txt').map((e) => [e.scopePath, e.ruleId])).toEqual([
      ['equipment/odd.equ/x.txt', 'path.equipment'],
      ['equipment/odd.equ', 'path.equipment'],
      ['equipment', 'path.equipment'],
    ]);
  });

  it('is empty for a file no path rule covers', () => {
    expect(pathContext(bundle, '90US', 'monster/goblin.mob')).toEqual([]);
  });
});
