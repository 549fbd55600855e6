import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createPathResolver, createReferenceIndex, createReferenceResolver, listPathCandidates } from '../../../runtime/references/resolve-references.js';
import type { Workspace, WorkspaceView } from '../../../runtime/workspace/workspace.js';
import { layerBundle, openFolder, removeTempDirs, WORKSPACE_LAYER, type FileTree } from '../workspace/helpers.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const named = (name: string, extra = '') => `[name]\n\t\`${name}\`\n${extra}`;

/** A 90US-layout archive: lists next to their files, relative row paths. */
const FILES_90US: FileTree = {
  'equipment/equipment.lst': [
    '100\t`character/sword.equ`',
    '101\t`character/missing.equ`',
    '102\t`character/dup_a.equ`',
    '102\t`character/dup_b.equ`',
    '103\t`character/override.equ`',
    '104\t`equipment/character/rootrel.equ`',
    '105\t`../../escape.equ`',
    '106\t`character/placeholder.equ`',
    '107\t`character/wrapped.equ`',
    '108\t`character/nested.equ`',
    '109\t`/character/sword.equ`',
    '110\t`character\\backslash.equ`',
    '111\t`character/fallback.equ`',
    '112\t`character/noname.equ`',
    '113\t`character/missing2.equ`',
    '113\t`character/dup_b.equ`',
    '',
  ].join('\n'),
  'equipment/character/sword.equ': named('Sword of Tests', '[rarity]\n\t4\n'),
  'equipment/character/dup_a.equ': named('first duplicate'),
  'equipment/character/dup_b.equ': named('second duplicate'),
  'equipment/character/(r)override.equ': named('client override'),
  'equipment/character/rootrel.equ': named('root relative'),
  'escape.equ': named('escaped'),
  'equipment/character/placeholder.equ': '[name]\n\t<3::sword_name>\n',
  'equipment/character/wrapped.equ': '[name]\n{5=`Wrapped ``name```}\n',
  'equipment/character/nested.equ': '[parent]\n[name]\n`inner`\n[/parent]\n[name]\n`top level`\n[name]\n`second`\n',
  'equipment/character/backslash.equ': named('backslash path'),
  'equipment/character/fallback.equ': '[name]\n<3::kor_only>\n',
  'equipment/character/noname.equ': '[rarity]\n1\n',
  'stackable/stackable.lst': '200\t`potion.stk`\n100\t`shadow.stk`\n',
  'stackable/potion.stk': named('Potion'),
  'stackable/shadow.stk': named('shadowed by equipment 100'),
  'monster/monster.lst': '1\t`goblin.mob`\n',
  'monster/goblin.mob': named('Goblin'),
  'skill/fighterskill.lst': '5\t`fighter/upper.skl`\n',
  'skill/fighter/upper.skl': named('Upper Slash'),
  'skill/creatormageskill.lst': '7\t`creatormage/x.skl`\n',
  'skill/creatormage/x.skl': named('Creator Skill'),
  'character/character.lst': '0\t`swordman/swordman.chr`\n1\t`fighter/fighter.chr`\n',
  'character/swordman/swordman.chr': '[name]\n`鬼剑士`\n[growtype name]\n`狂战士`\t`剑魂`\n',
  'character/fighter/fighter.chr': named('格斗家'),
  'npc/npc.lst': '9\t`linus.npc`\n',
  'npc/linus.npc': named('林纳斯'),
  'itemshop/itemshop.lst': '1\t`a.shp`\n2\t`b.shp`\n',
  'itemshop/a.shp': '[npc]\n9\n',
  'itemshop/b.shp': named('Shop B', '[npc]\n9\n'),
  'etc/wide.lst': '`a`\t1\t`w1.etc`\n`b`\t2\t`w2.etc`\n',
  'etc/w1.etc': '[title]\n`Wide One`\n',
  'n_string.lst': '3\t`equipment/equipment.kor.str`\n',
  'list/n_string_kor.lst': '3\t`equipment/equipment.uv.str`\n',
  'equipment/equipment.kor.str': utf16le('sword_name>占位剑\r\n'),
  'equipment/equipment.uv.str': utf16le('kor_only>overlay name\r\n'),
};

/** A 110US-layout archive: lists under list/, row paths from the archive root. */
const FILES_110US: FileTree = {
  'list/equipment.lst': '100\t`equipment/character/sword.equ`\n',
  'equipment/character/sword.equ': named('110 Sword'),
  'list/monster.lst': '1\t`monster/goblin.mob`\n',
  'monster/goblin.mob': named('110 Goblin'),
  'list/fighterskill.lst': '5\t`skill/fighter/upper.skl`\n',
  'skill/fighter/upper.skl': named('110 Upper'),
};

let bundle: Bundle;
const opened: Workspace[] = [];
async function viewOf(files: FileTree): Promise<WorkspaceView> {
  const { workspace } = await openFolder(files);
  opened.push(workspace);
  return workspace.view();
}

beforeAll(async () => {
  bundle = await layerBundle(WORKSPACE_LAYER);
});
afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

describe('list relations (90US layout)', () => {
  let resolve: ReturnType<typeof createReferenceResolver>;
  beforeAll(async () => {
    resolve = createReferenceResolver(bundle, await viewOf(FILES_90US));
  });
  const ref = (relation: string, id: string, context: string | null = null) => resolve({ relation, id, context });

  it('resolves an id to its file and name', () => {
    expect(ref('装备', '100')).toEqual({ status: 'resolved', name: 'Sword of Tests', path: 'equipment/character/sword.equ' });
  });

  it('unknown ids and rows whose file is missing are missing', () => {
    expect(ref('装备', '999')).toEqual({ status: 'missing', name: null, path: null });
    expect(ref('装备', '101').status).toBe('missing');
  });

  it('the first row of a duplicate id wins', () => {
    expect(ref('装备', '102')).toMatchObject({ status: 'resolved', name: 'first duplicate', path: 'equipment/character/dup_a.equ' });
    // A row whose file is missing is skipped, so the next row of that id counts.
    expect(ref('装备', '113')).toMatchObject({ status: 'resolved', path: 'equipment/character/dup_b.equ' });
  });

  it('(r) client-override names, root-relative rows and backslashes are found (§4.4)', () => {
    expect(ref('装备', '103')).toMatchObject({ status: 'resolved', path: 'equipment/character/(r)override.equ', name: 'client override' });
    expect(ref('装备', '104')).toMatchObject({ status: 'resolved', path: 'equipment/character/rootrel.equ' });
    expect(ref('装备', '110')).toMatchObject({ status: 'resolved', name: 'backslash path' });
  });

  it('rows escaping the archive or absolute are never followed', () => {
    expect(ref('装备', '105').status).toBe('missing');
    expect(ref('装备', '109').status).toBe('missing');
  });

  it('names: placeholders resolved, {N=} unwrapped, first top-level [name], none when absent', () => {
    expect(ref('装备', '106').name).toBe('占位剑');
    expect(ref('装备', '111').name).toBe('overlay name（未翻译）');
    expect(ref('装备', '107').name).toBe('Wrapped `name`');
    expect(ref('装备', '108').name).toBe('top level');
    expect(ref('装备', '112')).toEqual({ status: 'resolved', name: null, path: 'equipment/character/noname.equ' });
  });

  it('ids compare as trimmed strings', () => {
    expect(ref('装备', ' 100 ').status).toBe('resolved');
    expect(ref('装备', '0100').status).toBe('missing');
  });

  it('a list of width 3 with id token 1, path token 2 and another name section', () => {
    expect(ref('宽列表', '1')).toEqual({ status: 'resolved', name: 'Wide One', path: 'etc/w1.etc' });
    expect(ref('宽列表', 'a').status).toBe('missing');
    expect(ref('宽列表', '2').status).toBe('missing');
  });

  it('character.lst prefers [growtype name]; itemshop.lst falls back to its [npc] name', () => {
    expect(ref('职业', '0').name).toBe('狂战士');
    expect(ref('职业', '1').name).toBe('格斗家');
    expect(ref('商店', '1')).toEqual({ status: 'resolved', name: '林纳斯', path: 'itemshop/a.shp' });
    expect(ref('商店', '2').name).toBe('Shop B');
  });

  it('a configured list/x.lst is found at x/x.lst (90US)', () => {
    expect(ref('怪物', '1')).toEqual({ status: 'resolved', name: 'Goblin', path: 'monster/goblin.mob' });
  });

  it('union: members in order, first hit wins', () => {
    expect(ref('物品', '100')).toMatchObject({ status: 'resolved', name: 'Sword of Tests' });
    expect(ref('物品', '200')).toMatchObject({ status: 'resolved', name: 'Potion', path: 'stackable/potion.stk' });
    expect(ref('物品', '999').status).toBe('missing');
  });

  it('contextual: trimmed, case-insensitive context; context_required without one; missing for an unknown one', () => {
    expect(ref('技能', '5', '[fighter]')).toEqual({ status: 'resolved', name: 'Upper Slash', path: 'skill/fighter/upper.skl' });
    expect(ref('技能', '5', '  [FIGHTER] ')).toMatchObject({ status: 'resolved' });
    expect(ref('技能', '5', null).status).toBe('context_required');
    expect(ref('技能', '5', ' ').status).toBe('context_required');
    expect(ref('技能', '5', '[mage]').status).toBe('missing');
    expect(ref('技能', '5', '[swordman]').status).toBe('missing');
    expect(ref('技能', '7', '[knight]')).toMatchObject({ status: 'resolved', name: 'Creator Skill' });
    expect(ref('技能', '7', '[creator mage]')).toMatchObject({ status: 'resolved', name: 'Creator Skill' });
  });

  it('a relation the bundle does not know is unsupported', () => {
    expect(ref('nope', '1')).toEqual({ status: 'unsupported', name: null, path: null });
  });
});

describe('list relations (110US layout)', () => {
  it('configured x/x.lst found at list/x.lst; root-relative rows', async () => {
    const resolve = createReferenceResolver(bundle, await viewOf(FILES_110US));
    expect(resolve({ relation: '装备', id: '100', context: null })).toEqual({ status: 'resolved', name: '110 Sword', path: 'equipment/character/sword.equ' });
    expect(resolve({ relation: '怪物', id: '1', context: null })).toEqual({ status: 'resolved', name: '110 Goblin', path: 'monster/goblin.mob' });
    expect(resolve({ relation: '技能', id: '5', context: '[fighter]' })).toMatchObject({ status: 'resolved', name: '110 Upper' });
  });

  it('no list file at all: missing', async () => {
    const resolve = createReferenceResolver(bundle, await viewOf({ 'equipment/character/sword.equ': named('x') }));
    expect(resolve({ relation: '装备', id: '100', context: null }).status).toBe('missing');
    expect(resolve({ relation: '物品', id: '100', context: null }).status).toBe('missing');
  });
});

describe('list bindings, row paths and path lookups', () => {
  it('a file is the list of the relations whose layout candidates name it', async () => {
    const view = await viewOf({ ...FILES_90US, ...FILES_110US });
    const index = createReferenceIndex(bundle, view);
    const names = (file: string) => index.listBindings(file).map((b) => `${b.relation.name}:${b.context ?? ''}`);
    expect(names('equipment/equipment.lst')).toEqual(['装备:']);
    expect(names('list/equipment.lst')).toEqual(['装备:']);
    expect(names('monster/monster.lst')).toEqual(['怪物:']);
    expect(names('skill/creatormageskill.lst')).toEqual(['技能:[creator mage]']);
    expect(names('n_string.lst')).toEqual([]);
    expect(index.resolveRowPath('equipment/equipment.lst', 'character/SWORD.equ')).toBe('equipment/character/sword.equ');
    expect(index.resolveRowPath('equipment/equipment.lst', '')).toBeNull();
    expect(index.resolveRowPath('equipment/equipment.lst', 'C:/x.equ')).toBeNull();
  });

  it('createPathResolver: case-insensitive, null for missing files and refused paths', async () => {
    const resolvePath = createPathResolver(await viewOf({ 'Equipment/Set/A.equ': 'x' }));
    expect(resolvePath('equipment/set/a.equ')).toBe('Equipment/Set/A.equ');
    expect(resolvePath('equipment/set/b.equ')).toBeNull();
    expect(resolvePath('../a.equ')).toBeNull();
  });

  it('listPathCandidates: as given, list/<base>, and x/x.lst for list/x.lst', () => {
    expect(listPathCandidates('equipment/equipment.lst')).toEqual(['equipment/equipment.lst', 'list/equipment.lst']);
    expect(listPathCandidates('list/monster.lst')).toEqual(['list/monster.lst', 'monster/monster.lst']);
    expect(listPathCandidates('\\skill\\a.lst')).toEqual(['skill/a.lst', 'list/a.lst']);
    expect(listPathCandidates('')).toEqual([]);
  });

  it('a changed target file propagates STALE_WORKSPACE instead of a wrong name', async () => {
    const { workspace, root } = await openFolder({ 'equipment/equipment.lst': '1\t`a.equ`\n', 'equipment/a.equ': named('A') });
    opened.push(workspace);
    const view = await workspace.view();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${root}/equipment/a.equ`, named('A changed'));
    const resolve = createReferenceResolver(bundle, view);
    expect(() => resolve({ relation: '装备', id: '1', context: null })).toThrow(expect.objectContaining({ code: 'STALE_WORKSPACE' }));
  });
});
