/**
 * test/fixtures/pvfine/ is a layer whose annotations.json, lists.json and rendering.json are written by
 * hand in pvfine's own format (rule-format.md §1), with no project additions; only layer.json is ours.
 * It must build unchanged, resolve every target as pvfine reads it, and keep enum keys in source order.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLayers, type BuiltBundle } from '../../build/compile-layers.js';
import type { Problem } from '../../build/problems.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument, TargetSpec } from '../../runtime/bundle/schema.js';

const PVFINE_DIR = fileURLToPath(new URL('../fixtures/pvfine/', import.meta.url));
const LAYER = 'pvfine-sample';

/** A target with every optional part unset, as the bundle writes it (null, never 0). */
const NO_TARGET: TargetSpec = {
  kind: 'token',
  section: null,
  index: null,
  range: null,
  offset: null,
  groupOffset: null,
  standaloneValues: null,
  recordTokens: null,
  tokensPerLineIndex: null,
  contextIndex: null,
  imagePathToken: null,
  parent: null,
  notInside: null,
  topLevel: false,
  sectionPattern: null,
  when: null,
  countedGroups: null,
  variableRecords: null,
  after: null,
};

async function fileHashes(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(PVFINE_DIR)).sort()) {
    out[name] = createHash('sha256').update(await readFile(path.join(PVFINE_DIR, name))).digest('hex');
  }
  return out;
}

let before: Record<string, string>;
let built: BuiltBundle;
let problems: Problem[];
let bundle: Bundle;

beforeAll(async () => {
  before = await fileHashes();
  const result = await compileLayers([PVFINE_DIR]);
  problems = result.problems;
  if (!result.ok) throw new Error(`pvfine fixture does not build:\n${result.problems.map((p) => `${p.file} ${p.path}: ${p.message}`).join('\n')}`);
  built = result.bundle;
  bundle = openBuiltBundle(built.files);
});

function doc(id: string, kind: 'rule' | 'field' = 'rule'): BundleDocument {
  const found = bundle.documents.filter((d) => d.id === id && d.kind === kind);
  expect(found, `${kind} ${id}`).toHaveLength(1);
  return found[0] as BundleDocument;
}

describe('pvfine fixture files', () => {
  it('hold only pvfine keys (plus our layer.json)', async () => {
    expect((await readdir(PVFINE_DIR)).sort()).toEqual(['annotations.json', 'layer.json', 'lists.json', 'rendering.json']);
    const annotations = JSON.parse(await readFile(path.join(PVFINE_DIR, 'annotations.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(annotations).sort()).toEqual(['description', 'fields', 'rules', 'version']);
    const text = await readFile(path.join(PVFINE_DIR, 'annotations.json'), 'utf8');
    for (const projectKey of ['"disabled"', '"override"', '"extends"', '"priority"', '"enabled"', '"layer"']) {
      expect(text).not.toContain(projectKey);
    }
  });

  it('builds without changes to the files', async () => {
    expect(built.rulesRevision).toMatch(/^[0-9a-f]{20}$/);
    expect(await fileHashes()).toEqual(before);
  });

  it('reports only warnings: one per key written in another letter case', () => {
    expect(problems.every((p) => p.severity === 'warning')).toBe(true);
    const annotationsWarnings = problems.filter((p) => p.file === 'annotations.json');
    expect(annotationsWarnings.map((p) => p.path).sort()).toEqual(['$.rules[13].annotation.Title', '$.rules[13].target.Section']);
    for (const p of annotationsWarnings) {
      expect(p.layer).toBe(LAYER);
      expect(p.message).toMatch(/key "(Section|Title)" is read as "(section|title)"/);
    }
    const listsWarnings = problems.filter((p) => p.file === 'lists.json');
    expect(listsWarnings).toHaveLength(1);
    expect(listsWarnings[0]?.path).toContain('怪物');
    expect(listsWarnings[0]?.path).toMatch(/\.ListPath$/);
    expect(listsWarnings[0]?.message).toContain('"listPath"');
    expect(problems).toHaveLength(3);
  });

  it('reads the case-variant keys as their canonical keys', () => {
    const cool = doc('global.cool-time');
    expect(cool.resolved.target).toEqual({ ...NO_TARGET, kind: 'section', section: 'cool time' });
    expect(cool.title).toBe('冷却时间 ms');
    const monster = bundle.relationsByName.get('怪物');
    expect(monster?.listPath).toBe('monster/monster.lst');
    expect(monster?.kind).toBe('list');
    expect(monster?.effectiveRecordTokens).toBe(2);
  });
});

describe('resolved targets', () => {
  it('repeated records: recordTokens with an in-record index', () => {
    expect(doc('independent-drop.monster').resolved.target).toEqual({ ...NO_TARGET, section: 'independent drop', index: 1, recordTokens: 17 });
    expect(doc('independent-drop.item').resolved.target).toEqual({ ...NO_TARGET, section: 'independent drop', index: 2, recordTokens: 17 });
  });

  it('sentinel groups: standaloneValues [-1] with offset and groupOffset', () => {
    expect(doc('world-drop').resolved.target).toEqual({
      ...NO_TARGET,
      section: 'world drop',
      index: 0,
      offset: 1,
      groupOffset: 2,
      standaloneValues: [-1],
      recordTokens: 2,
    });
  });

  it('dynamic width: tokensPerLineIndex 0 stays 0 (not null)', () => {
    expect(doc('level-info').resolved.target).toEqual({
      ...NO_TARGET,
      section: 'level info',
      index: 0,
      offset: 1,
      recordTokens: 2,
      tokensPerLineIndex: 0,
    });
  });

  it('an explicit offset 0 is kept as 0; an absent one is null', () => {
    expect(doc('stk.input-item').resolved.target.offset).toBe(0);
    expect(doc('stk.input-item').resolved.target.groupOffset).toBeNull();
    expect(doc('independent-drop.item').resolved.target.offset).toBeNull();
  });

  it('image rule: recordTokens 2, index 1, imagePathToken 0, inlineImage', () => {
    const icon = doc('global.icon');
    expect(icon.resolved.target).toEqual({ ...NO_TARGET, section: 'icon', index: 1, recordTokens: 2, imagePathToken: 0 });
    expect(icon.resolved.annotation).toMatchObject({ type: 'image', inlineImage: true, title: '图标' });
  });

  it('legacy image rule: imageIndexToken is migrated (index → imagePathToken, imageIndexToken → index)', () => {
    const image = doc('ani.image');
    expect(image.resolved.target).toEqual({ ...NO_TARGET, section: 'IMAGE', index: 0, recordTokens: 2, imagePathToken: 1 });
    expect(image.resolved.target).not.toHaveProperty('imageIndexToken');
    // The raw definition stays as written.
    expect((image.raw as { target: Record<string, unknown> }).target).toMatchObject({ index: 1, imageIndexToken: 0 });
  });

  it('path annotation with pathRoot and an empty title', () => {
    const partSet = doc('global.equipment-part-set');
    expect(partSet.resolved.target).toEqual({ ...NO_TARGET, section: 'equipment part set', index: 1 });
    expect(partSet.resolved.annotation).toMatchObject({ type: 'path', pathRoot: 'equipment/', title: '' });
  });

  it('path notes with globs (a section on a path target is kept but not meaningful)', () => {
    const hell = doc('path.hell');
    expect(hell.targetKind).toBe('path');
    expect(hell.match).toEqual({ extensions: [], glob: 'etc/itemdropinfo_monster_hell.etc' });
    expect(hell.section).toBeNull();
    expect(hell.resolved.target).toEqual({ ...NO_TARGET, kind: 'path', section: 'name' });
    const dir = doc('path.equipment');
    expect(dir.match.glob).toBe('equipment/**');
    expect(dir.content).toBe('装备文件所在目录');
    expect(dir.group).toBe('path');
  });

  it('token range', () => {
    expect(doc('explain.range').resolved.target).toEqual({ ...NO_TARGET, section: 'basic explain', range: { start: 0, endExclusive: 3 } });
  });

  it('contextual reference with contextIndex (through a field) and without it', () => {
    const viaField = doc('equ.skill-levelup');
    expect(viaField.fieldId).toBe('equ.skill-levelup');
    expect(viaField.resolved.target).toEqual({ ...NO_TARGET, section: 'skill levelup', index: 1, recordTokens: 3, contextIndex: 0 });
    expect(viaField.resolved.annotation).toMatchObject({ type: 'reference', relation: '技能', title: '技能' });
    expect(viaField.resolved.match).toEqual({ extensions: ['.equ'], glob: '' });
    expect(doc('skill.levelup').resolved.target.contextIndex).toBeNull();
  });

  it("a rule with pvfine's empty editor blocks takes every block from its field", () => {
    const name = doc('equ.name');
    expect(name.resolved.target).toEqual({ ...NO_TARGET, section: 'name', index: 0 });
    expect(name.resolved.annotation).toMatchObject({ title: '名称', type: 'text' });
    expect(name.resolved.match).toEqual({ extensions: ['.equ'], glob: '' });
  });
});

describe('fields, relations and order', () => {
  it('fields keep their preview blocks; providers are trimmed and de-duplicated case-insensitively', () => {
    expect(doc('equ.name', 'field').resolved.preview).toEqual({ providers: ['equ'], role: 'name', group: 'header', order: 1, format: 'text', label: null });
    expect(doc('equ.grade-code', 'field').resolved.preview).toEqual({
      providers: ['equ', 'tooltip'],
      role: 'grade',
      group: 'header',
      order: 2,
      format: 'enum',
      label: '等级',
    });
    expect(doc('equ.skill-levelup', 'field').resolved.preview?.order).toBeNull();
    expect(doc('field:equ.grade-code').resolved.preview).toBeNull();
  });

  it('enum values keep source order, "001" and "1" distinct (values.json as written)', () => {
    const expected = [
      ['001', '零零一'],
      ['1', '一'],
      ['10', '十'],
      ['2', '二'],
    ];
    const valuesFile = JSON.parse(built.files.get('values.json') ?? '{}') as { values: Record<string, string[][]> };
    for (const d of [doc('equ.grade-code', 'field'), doc('field:equ.grade-code')]) {
      expect(valuesFile.values[d.documentId]).toEqual(expected);
      expect(bundle.valuesOf(d.documentId)).toEqual(expected);
      expect(d.valueCount).toBe(4);
    }
  });

  it('fields used by a rule are suppressed; the others become effective field:<id> rules', () => {
    for (const id of ['equ.name', 'equ.skill-levelup']) {
      const generated = doc(`field:${id}`);
      for (const status of Object.values(generated.versions)) {
        expect(status.state).toBe('suppressed');
        expect(status.reason).toContain(`"${id}"`);
      }
    }
    expect(Object.values(doc('field:equ.grade-code').versions).every((s) => s.state === 'effective')).toBe(true);
  });

  it('ruleOrder: explicit rules in array order, then unsuppressed fields; pvfVersions filter per context', () => {
    const explicit = [
      'equ.name',
      'equ.skill-levelup',
      'independent-drop.monster',
      'independent-drop.item',
      'world-drop',
      'level-info',
      'skill.levelup',
      'stk.input-item',
      'global.icon',
      'ani.image',
      'global.equipment-part-set',
      'path.hell',
      'path.equipment',
      'global.cool-time',
      'explain.range',
    ];
    const idsOf = (v: string) => (bundle.ruleOrder[v] ?? []).map((id) => bundle.documentsById.get(id)?.id);
    expect(idsOf('110US')).toEqual([...explicit, 'field:equ.grade-code']);
    const without110 = [...explicit.filter((id) => id !== 'global.cool-time'), 'field:equ.grade-code'];
    for (const v of ['', '90US', '90CN']) expect(idsOf(v), `context ${JSON.stringify(v)}`).toEqual(without110);
  });

  it('relations: union members in order; contextual paths in source order', () => {
    const item = bundle.relationsByName.get('物品');
    expect(item?.kind).toBe('union');
    expect(item?.resolvedMembers).toEqual(['装备', '道具']);
    expect(item?.problems).toEqual([]);
    const skill = bundle.relationsByName.get('技能');
    expect(skill?.kind).toBe('contextual');
    expect(skill?.contextToken).toBe(0);
    expect(skill?.contextPaths).toEqual([
      ['[swordman]', 'skill/swordmanskill.lst'],
      ['[fighter]', 'skill/fighterskill.lst'],
      ['[at fighter]', 'skill/atfighterskill.lst'],
      ['[knight]', 'skill/creatormageskill.lst'],
    ]);
    expect(bundle.relations.map((r) => r.name)).toEqual(['装备', '道具', '怪物', '物品', '技能']);
  });

  it('rendering rules with offset, tokensPerLineIndex, nestedSections and standaloneValues', () => {
    expect(bundle.rendering.map((r) => r.id)).toEqual(['file.lst', 'section.level-info', 'section.independent-drop', 'section.world-drop']);
    const byId = new Map(bundle.rendering.map((r) => [r.id, r]));
    expect(byId.get('file.lst')?.target).toEqual({ kind: 'file', section: null });
    expect(byId.get('section.level-info')?.format).toEqual({ tokensPerLine: 1, offset: 1, tokensPerLineIndex: 0, standaloneValues: null, nestedSections: null });
    expect(byId.get('section.independent-drop')?.format.nestedSections).toEqual(['list']);
    expect(byId.get('section.world-drop')?.format.standaloneValues).toEqual([-1]);
    expect(byId.get('section.world-drop')?.match).toEqual({ extensions: [], glob: 'etc/**' });
  });
});
