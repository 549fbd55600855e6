import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { DEFAULT_VALUES_LIMIT } from '../../../runtime/get/get-schema.js';
import { compileBundle, documentIdOf, errorOf, fixtureBundle, get, itemNamed, search } from '../search/helpers.js';

let bundle: Bundle;
let otherSnapshot: Bundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
  otherSnapshot = await compileBundle('search-base');
});

const ruleDoc = (id: string, layer?: string) => documentIdOf(bundle, 'rule', id, layer);
const fieldDoc = (id: string) => documentIdOf(bundle, 'field', id);

describe('get: document and definitions', () => {
  it('returns the document a search item names, with its source and status', () => {
    const found = search(bundle, { pvfVersion: '90US', query: '售价' });
    const item = itemNamed(found.items, 'token.price');
    const out = get(bundle, { documentId: item.documentId, rulesRevision: found.rulesRevision });
    expect(out.rulesRevision).toBe(bundle.rulesRevision);
    expect(out.document).toMatchObject({
      documentId: item.documentId,
      kind: 'rule',
      ruleId: 'token.price',
      fieldId: null,
      origin: 'configured',
      layer: 'search-base',
      source: 'builtin',
      sourcePointer: expect.stringMatching(/^annotations\.json#/),
      title: '售价',
      content: '商店出售价格 price value。',
      pvfVersions: [],
      status: 'effective',
      statusReason: null,
      overriddenBy: null,
    });
    expect(out.document.versions['90US']).toEqual({ state: 'effective', effective: true, reason: null });
  });

  it('does not expose an absolute local path as the source', () => {
    const text = JSON.stringify(get(bundle, { documentId: ruleDoc('token.price') }));
    expect(text).not.toContain(process.cwd());
    expect(text).not.toMatch(/fixtures[/\\]layers/);
  });

  it('omits the values map from raw and resolved definitions and says so', () => {
    const out = get(bundle, { documentId: fieldDoc('equ.rarity') });
    expect(out.definitionsOmitValues).toBe(true);
    const raw = out.rawDefinition as { annotation?: Record<string, unknown> };
    expect(raw.annotation).toBeDefined();
    expect(raw.annotation).not.toHaveProperty('values');
    expect(raw.annotation?.title).toBe('稀有度');
    expect(out.resolvedDefinition.annotation).not.toHaveProperty('values');
    expect(out.resolvedDefinition.annotation.hasValues).toBe(true);
    expect(out.valueCount).toBe(7);
  });

  it('keeps the raw definition as written', () => {
    const out = get(bundle, { documentId: ruleDoc('rule.attack-uses-field') });
    expect(out.rawDefinition).toEqual({ id: 'rule.attack-uses-field', description: '使用共享字段的规则', group: 'stats', field: 'equ.attack' });
    expect(out.document).toMatchObject({ group: 'stats', description: '使用共享字段的规则', fieldId: 'equ.attack' });
  });

  it('gives the full target with explicit null for absent optional parts and 0 where the source wrote 0', () => {
    const out = get(bundle, { documentId: ruleDoc('token.zero') });
    expect(out.resolvedDefinition.target).toEqual({
      kind: 'token',
      section: 'zero',
      index: 0,
      range: null,
      offset: 0,
      groupOffset: 0,
      standaloneValues: [-1, 0],
      recordTokens: 2,
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
    });
    expect(out.resolvedDefinition.match).toEqual({ extensions: ['.equ'], glob: '' });
    expect(out.resolvedDefinition.annotation).toEqual({
      title: '零值',
      content: 'offset 与 groupOffset 写的是 0。',
      type: 'text',
      relation: null,
      pathRoot: null,
      inlineImage: null,
      hasValues: false,
      sentinels: null,
      columns: null,
    });
  });

  it('gives null for every target part a path rule does not have', () => {
    const target = get(bundle, { documentId: ruleDoc('path.equipment') }).resolvedDefinition.target;
    expect(target).toEqual({
      kind: 'path', section: null, index: null, range: null, offset: null, groupOffset: null, standaloneValues: null,
      recordTokens: null, tokensPerLineIndex: null, contextIndex: null, imagePathToken: null, parent: null, notInside: null, topLevel: false, sectionPattern: null, when: null, countedGroups: null, variableRecords: null, after: null,
    });
  });

  it("shows the shared field's blocks in the resolved definition of a rule that uses the field", () => {
    const out = get(bundle, { documentId: ruleDoc('rule.attack-uses-field') });
    expect(out.resolvedDefinition.match).toEqual({ extensions: ['.equ'], glob: '' });
    expect(out.resolvedDefinition.target).toMatchObject({ kind: 'token', section: 'physical attack', index: 0 });
    expect(out.resolvedDefinition.annotation).toMatchObject({ title: '物理攻击', type: 'text', content: '物理攻击力数值，影响角色的基础伤害。' });
    expect(out.document).toMatchObject({ ruleId: 'rule.attack-uses-field', fieldId: 'equ.attack', title: '物理攻击' });
  });

  it("replaces a field's block as a whole when the rule supplies its own", () => {
    const out = get(bundle, { documentId: ruleDoc('rule.attack-own-target') });
    expect(out.resolvedDefinition.target).toEqual({
      kind: 'token', section: 'magical attack', index: 0, range: null, offset: null, groupOffset: null, standaloneValues: null,
      recordTokens: null, tokensPerLineIndex: null, contextIndex: null, imagePathToken: null, parent: null, notInside: null, topLevel: false, sectionPattern: null, when: null, countedGroups: null, variableRecords: null, after: null,
    });
    expect(out.resolvedDefinition.annotation.title).toBe('物理攻击');
    expect(out.resolvedDefinition.match.extensions).toEqual(['.equ']);
  });

  it("returns a shared field's preview spec", () => {
    expect(get(bundle, { documentId: fieldDoc('equ.attack') }).preview).toEqual({
      providers: ['equ'], role: 'attack', group: 'stats', order: 10, format: 'signed-number', label: null,
    });
    expect(get(bundle, { documentId: ruleDoc('token.price') }).preview).toBeNull();
  });

  it('gives an overridden definition and its overrider different documentIds, and names the overrider', () => {
    const baseId = ruleDoc('override.me', 'search-base');
    const userId = ruleDoc('override.me', 'search-user');
    expect(baseId).not.toBe(userId);
    const overridden = get(bundle, { documentId: baseId });
    expect(overridden.document).toMatchObject({ status: 'overridden', overriddenBy: userId, source: 'builtin', content: '基础层定义。' });
    expect(overridden.document.statusReason).toMatch(/search-user/);
    const overrider = get(bundle, { documentId: userId });
    expect(overrider.document).toMatchObject({ status: 'effective', overriddenBy: null, source: 'user', layer: 'search-user', content: '用户层定义。' });
  });

  it('reports a disabled definition with its reason', () => {
    const out = get(bundle, { documentId: ruleDoc('disabled.me') });
    expect(out.document.status).toBe('disabled');
    expect(out.document.statusReason).toMatch(/disable/);
    expect(Object.values(out.document.versions).every((v) => v.state === 'disabled' && !v.effective)).toBe(true);
  });

  it('reports per-version applicability of a version-restricted rule', () => {
    const out = get(bundle, { documentId: ruleDoc('ver.110-only') });
    expect(out.document.pvfVersions).toEqual(['110US']);
    expect(out.document.versions['110US']?.effective).toBe(true);
    expect(out.document.versions['90US']).toMatchObject({ state: 'notApplicable', effective: false });
    expect(out.document.versions['']).toMatchObject({ state: 'notApplicable', effective: false });
  });
});

describe('get: enum values', () => {
  it('pages values in source order with the default page size', () => {
    const out = get(bundle, { documentId: fieldDoc('colors') });
    expect(DEFAULT_VALUES_LIMIT).toBeGreaterThan(8);
    expect(out.values.map((v) => v.key)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
    expect(out.valuesNextCursor).toBeNull();
  });

  it('pages values through valuesNextCursor', () => {
    const documentId = fieldDoc('colors');
    const first = get(bundle, { documentId, valuesLimit: 3 });
    expect(first.values.map((v) => v.key)).toEqual(['c1', 'c2', 'c3']);
    const second = get(bundle, { documentId, valuesLimit: 3, valuesCursor: first.valuesNextCursor ?? '' });
    expect(second.values.map((v) => v.key)).toEqual(['c4', 'c5', 'c6']);
    const third = get(bundle, { documentId, valuesLimit: 3, valuesCursor: second.valuesNextCursor ?? '' });
    expect(third.values).toEqual([{ key: 'c7', label: '红色七' }, { key: 'c8', label: '蓝色' }]);
    expect(third.valuesNextCursor).toBeNull();
    expect(third.valueCount).toBe(8);
  });

  it('looks up one value by its exact key', () => {
    const documentId = fieldDoc('equ.rarity');
    expect(get(bundle, { documentId, value: '4' }).valueLookup).toEqual({ key: '4', found: true, label: '史诗' });
    expect(get(bundle, { documentId, value: '04' }).valueLookup).toEqual({ key: '04', found: false, label: null });
    expect(get(bundle, { documentId, value: ' 4' }).valueLookup).toEqual({ key: ' 4', found: false, label: null });
    expect(get(bundle, { documentId }).valueLookup).toBeNull();
  });

  it('gives a generated field rule the same values as its field', () => {
    const field = get(bundle, { documentId: fieldDoc('equ.rarity') });
    const generated = get(bundle, { documentId: ruleDoc('field:equ.rarity') });
    expect(generated.document).toMatchObject({ kind: 'rule', origin: 'generated', ruleId: 'field:equ.rarity', fieldId: 'equ.rarity' });
    expect(generated.values).toEqual(field.values);
    expect(generated.document.documentId).not.toBe(field.document.documentId);
  });

  it('rejects a values cursor of another document as INVALID_CURSOR', () => {
    const cursor = get(bundle, { documentId: fieldDoc('colors'), valuesLimit: 2 }).valuesNextCursor ?? '';
    expect(() => get(bundle, { documentId: fieldDoc('equ.rarity'), valuesCursor: cursor })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('rejects a values cursor of another snapshot as STALE_RULES', () => {
    const documentId = fieldDoc('colors');
    expect(otherSnapshot.documentsById.has(documentId)).toBe(true);
    const cursor = get(otherSnapshot, { documentId, valuesLimit: 2 }).valuesNextCursor ?? '';
    expect(() => get(bundle, { documentId, valuesCursor: cursor })).toThrow(expect.objectContaining({ code: 'STALE_RULES' }));
  });

  it('rejects an altered values cursor as INVALID_CURSOR', () => {
    const documentId = fieldDoc('colors');
    const cursor = get(bundle, { documentId, valuesLimit: 2 }).valuesNextCursor ?? '';
    const altered = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    expect(() => get(bundle, { documentId, valuesCursor: altered })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });
});

describe('get: relations', () => {
  it('expands only the referenced relation plus its union members, with their .lst paths', () => {
    const out = get(bundle, { documentId: ruleDoc('ref.item') });
    expect(out.relations.map((r) => r.name)).toEqual(['物品', '装备', '道具']);
    const [union, equipment, stackable] = out.relations;
    expect(union).toMatchObject({ kind: 'union', members: ['装备', '道具'], resolvedMembers: ['装备', '道具'], contextRequired: false, listPath: null });
    expect(union?.listPaths).toEqual(expect.arrayContaining(['equipment/equipment.lst', 'stackable/stackable.lst']));
    expect(equipment).toMatchObject({ kind: 'list', listPath: 'equipment/equipment.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name', contextRequired: false });
    expect(equipment?.listPaths).toEqual(['equipment/equipment.lst', 'list/equipment.lst']);
    expect(stackable?.listPaths).toContain('stackable/stackable.lst');
    expect(out.relations.every((r) => r.problems.length === 0 && r.status === 'effective' && r.source === 'builtin')).toBe(true);
  });

  it('marks a contextual relation as needing context and lists its context paths', () => {
    const out = get(bundle, { documentId: ruleDoc('ref.skill') });
    expect(out.relations).toHaveLength(1);
    expect(out.relations[0]).toMatchObject({
      name: '技能',
      kind: 'contextual',
      contextRequired: true,
      contextToken: 1,
      contextPaths: [
        { context: '[swordman]', listPath: 'skill/swordmanskill.lst' },
        { context: '[gunner]', listPath: 'skill/gunnerskill.lst' },
      ],
    });
    expect(out.relations[0]?.listPaths).toEqual(expect.arrayContaining(['skill/swordmanskill.lst', 'skill/gunnerskill.lst']));
  });

  it('marks a union that reaches a contextual member as needing context', () => {
    const out = get(bundle, { documentId: ruleDoc('ref.any') });
    expect(out.relations.map((r) => r.name)).toEqual(['任意引用', '物品', '装备', '道具', '技能']);
    const byName = new Map(out.relations.map((r) => [r.name, r]));
    expect(byName.get('任意引用')?.contextRequired).toBe(true);
    expect(byName.get('物品')?.contextRequired).toBe(false);
    expect(byName.get('技能')?.contextRequired).toBe(true);
  });

  it('returns a plain list relation alone and never unrelated relations', () => {
    const out = get(bundle, { documentId: ruleDoc('ref.equip') });
    expect(out.relations.map((r) => r.name)).toEqual(['装备']);
    expect(JSON.stringify(out)).not.toContain('怪物');
  });

  it('returns no relations for a document that references none', () => {
    expect(get(bundle, { documentId: ruleDoc('token.name') }).relations).toEqual([]);
    expect(get(bundle, { documentId: fieldDoc('equ.rarity') }).relations).toEqual([]);
  });
});

describe('get: errors', () => {
  it('fails with DOCUMENT_NOT_FOUND for an unknown documentId', () => {
    const error = errorOf(() => get(bundle, { documentId: 'nope' }));
    expect(error.code).toBe('DOCUMENT_NOT_FOUND');
    expect(error.data?.rulesRevision).toBe(bundle.rulesRevision);
    // A rule id is not a documentId.
    expect(() => get(bundle, { documentId: 'token.price' })).toThrow(expect.objectContaining({ code: 'DOCUMENT_NOT_FOUND' }));
  });

  it('fails with DOCUMENT_NOT_FOUND for a document only another snapshot has', () => {
    const onlyUser = ruleDoc('user.note');
    expect(() => get(otherSnapshot, { documentId: onlyUser })).toThrow(expect.objectContaining({ code: 'DOCUMENT_NOT_FOUND' }));
  });

  it('fails with STALE_RULES when rulesRevision is not the active snapshot', () => {
    const documentId = ruleDoc('token.price');
    const error = errorOf(() => get(bundle, { documentId, rulesRevision: otherSnapshot.rulesRevision }));
    expect(error.code).toBe('STALE_RULES');
    expect(error.data?.rulesRevision).toBe(bundle.rulesRevision);
    // Checked before the document, so an old documentId does not look merely missing.
    expect(() => get(bundle, { documentId: 'nope', rulesRevision: 'old' })).toThrow(expect.objectContaining({ code: 'STALE_RULES' }));
  });

  it('accepts the active rulesRevision', () => {
    expect(get(bundle, { documentId: ruleDoc('token.price'), rulesRevision: bundle.rulesRevision }).document.ruleId).toBe('token.price');
  });
});

describe('get: overridden and disabled relations', () => {
  let layered: Bundle;
  beforeAll(async () => {
    layered = await compileBundle('search-base', 'search-user', 'search-relations');
  });

  it('resolves a referenced relation to the definition of the last layer that defines it', () => {
    const out = get(layered, { documentId: documentIdOf(layered, 'rule', 'ref.equip') });
    expect(out.relations).toHaveLength(1);
    expect(out.relations[0]).toMatchObject({ name: '装备', layer: 'search-relations', listPath: 'list/equipment.lst', status: 'effective' });
    expect(out.relations[0]?.listPaths).toEqual(['list/equipment.lst', 'equipment/equipment.lst']);
  });

  it('marks a relation from a layer of unknown kind with source unknown', () => {
    const out = get(layered, { documentId: documentIdOf(layered, 'rule', 'ref.equip') });
    expect(out.relations[0]?.source).toBe('unknown');
  });

  it('reports a disabled union member as a problem of the union and leaves it out of the lookup', () => {
    const out = get(layered, { documentId: documentIdOf(layered, 'rule', 'ref.item') });
    const union = out.relations.find((r) => r.name === '物品');
    expect(union?.resolvedMembers).toEqual(['装备']);
    expect(union?.problems).toEqual([expect.objectContaining({ kind: 'disabled', member: '道具' })]);
    expect(union?.listPaths).not.toContain('stackable/stackable.lst');
    for (const relation of out.relations) {
      if (relation.status !== 'effective') expect(relation.statusReason).toMatch(/search-relations/);
    }
    expect(out.relations.some((r) => r.name === '技能' || r.name === '怪物')).toBe(false);
  });
});
