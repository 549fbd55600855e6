/**
 * The fixture of test/runtime/mcp/protocol-test-list.test.ts: two rule layers (a builtin-kind base and a user
 * layer over it) and a folder workspace, made so that each item of the protocol's test list
 * (spec/MCP标注文档协议.md, last paragraph) has something real to find through the tools.
 *
 * Base layer `proto-base` (kind builtin, versions 90US/90CN/110US):
 * - path notes: `path.equipment` (glob equipment/**), `path.character` (glob equipment/character/**),
 *   `path.equ-file` (extension .equ, files only);
 * - `name` (token, all files), `glob.durability` (token, glob-only match: applicability unknown by
 *   extension), `ver.110-only` / `ver.90cn-only` (token `[growth]`, pvfVersions);
 * - `disabled.me` (disabled by the user layer) and `override.me` (overridden by the user layer), and
 *   the section note `section.price`;
 * - shared fields: `equ.rarity` (enum, overridden by the user layer; used by `rarity.uses-field` and by
 *   `rarity.own-title`, which supplies its own annotation block) and `equ.weight` (used by no rule, so
 *   it becomes the generated rule `field:equ.weight`);
 * - `huge.code`: an enum of HUGE_ENUM_SIZE values, keys "0".."N-1" plus "001" (kept apart from "1");
 * - references: `upgrade.item` (union 物品), `world.drop` (records split by -1 sentinels with a group
 *   offset), `skill.levelup` (contextual 技能 with contextIndex), and `level.info` (dynamic record width
 *   from tokensPerLineIndex).
 *
 * The workspace's equipment file is written with CRLF line ends and holds Chinese and an emoji.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const HUGE_ENUM_SIZE = 3000;

const equ = { extensions: ['.equ'] };

function hugeValues(): Record<string, string> {
  const values: Record<string, string> = {};
  for (let i = 0; i < HUGE_ENUM_SIZE; i++) values[String(i)] = `代码 ${i}`;
  values['001'] = '前导零代码';
  return values;
}

const BASE_ANNOTATIONS = {
  version: 1,
  description: 'protocol test-list fixture (base)',
  fields: [
    {
      id: 'equ.rarity',
      match: equ,
      target: { kind: 'token', section: 'rarity', index: 0 },
      annotation: { title: '稀有度', type: 'enum', content: '内置稀有度。', values: { '0': '普通', '1': '高级', '2': '稀有', '3': '神器', '4': '史诗' } },
      preview: { provider: 'equ', role: 'rarity', group: 'header', order: 1, format: 'enum' },
    },
    {
      id: 'equ.weight',
      match: equ,
      target: { kind: 'token', section: 'weight', index: 0 },
      annotation: { title: '重量', type: 'text', content: '装备重量。' },
    },
  ],
  rules: [
    { id: 'path.equipment', description: '装备目录说明', match: { glob: 'equipment/**' }, target: { kind: 'path' }, annotation: { title: '装备目录', type: 'text', content: '装备文件所在目录。' } },
    { id: 'path.character', match: { glob: 'equipment/character/**' }, target: { kind: 'path' }, annotation: { title: '角色装备目录', type: 'text', content: '角色可穿戴的装备。' } },
    { id: 'path.equ-file', match: equ, target: { kind: 'path' }, annotation: { title: '装备文件', type: 'text', content: '单件装备脚本。' } },
    { id: 'name', target: { kind: 'token', section: 'name', index: 0 }, annotation: { title: '名称', type: 'text', content: '显示名称。' } },
    { id: 'glob.durability', match: { glob: 'equipment/**/*.equ' }, target: { kind: 'token', section: 'durability', index: 0 }, annotation: { title: '耐久度', type: 'text', content: '只按路径模式限定。' } },
    { id: 'ver.110-only', pvfVersions: ['110US'], match: equ, target: { kind: 'token', section: 'growth', index: 0 }, annotation: { title: '成长属性(110)', type: 'text', content: '仅 110US。' } },
    { id: 'ver.90cn-only', pvfVersions: ['90CN'], match: equ, target: { kind: 'token', section: 'growth', index: 0 }, annotation: { title: '成长属性(国服)', type: 'text', content: '仅 90CN。' } },
    { id: 'disabled.me', match: equ, target: { kind: 'section', section: 'old stat' }, annotation: { title: '旧属性', type: 'text', content: '用户层禁用的规则。' } },
    { id: 'override.me', match: equ, target: { kind: 'token', section: 'price', index: 0 }, annotation: { title: '售价(内置)', type: 'text', content: '内置定义。' } },
    { id: 'section.price', match: equ, target: { kind: 'section', section: 'price' }, annotation: { title: '价格', type: 'text', content: '出售价格区块。' } },
    { id: 'rarity.uses-field', description: '使用共享字段的规则', field: 'equ.rarity' },
    { id: 'rarity.own-title', field: 'equ.rarity', annotation: { title: '稀有度(自有块)', type: 'text' } },
    { id: 'huge.code', match: equ, target: { kind: 'token', section: 'code', index: 0 }, annotation: { title: '物品代码', type: 'enum', content: '超大枚举。', values: hugeValues() } },
    { id: 'upgrade.item', match: equ, target: { kind: 'token', section: 'upgrade item', index: 0 }, annotation: { title: '升级材料', type: 'reference', relation: '物品' } },
    {
      id: 'world.drop',
      target: { kind: 'token', section: 'world drop', index: 0, recordTokens: 2, groupOffset: 1, standaloneValues: [-1] },
      annotation: { title: '掉落物品', type: 'reference', relation: '物品' },
    },
    {
      id: 'skill.levelup',
      match: equ,
      target: { kind: 'token', section: 'skill levelup', index: 1, recordTokens: 3, contextIndex: 0 },
      annotation: { title: '技能', type: 'reference', relation: '技能' },
    },
    {
      id: 'level.info',
      target: { kind: 'token', section: 'level info', index: 1, offset: 1, recordTokens: 3, tokensPerLineIndex: 0 },
      annotation: { title: '等级数值', type: 'text', content: '每条记录的宽度来自第 0 个 token。' },
    },
  ],
};

const BASE_LISTS = {
  version: 1,
  relations: {
    装备: { kind: 'list', listPath: 'equipment/equipment.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' },
    道具: { kind: 'list', listPath: 'stackable/stackable.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' },
    物品: { kind: 'union', relations: ['装备', '道具'] },
    技能: {
      kind: 'contextual',
      idToken: 0,
      pathToken: 1,
      recordTokens: 2,
      contextToken: 0,
      nameSection: 'name',
      contextPaths: { '[fighter]': 'skill/fighterskill.lst', '[mage]': 'skill/mageskill.lst' },
    },
  },
};

const BASE_RENDERING = {
  version: 1,
  rules: [{ id: 'file.lst', match: { extensions: ['.lst'] }, target: { kind: 'file' }, format: { tokensPerLine: 2 } }],
};

const USER_ANNOTATIONS = {
  version: 1,
  fields: [
    {
      id: 'equ.rarity',
      match: equ,
      target: { kind: 'token', section: 'rarity', index: 0 },
      annotation: { title: '稀有度(用户)', type: 'enum', content: '用户层稀有度。', values: { '0': '普通', '2': '稀有', '4': '史诗(用户)', '9': '传说' } },
    },
  ],
  rules: [{ id: 'override.me', match: equ, target: { kind: 'token', section: 'price', index: 0 }, annotation: { title: '售价(用户)', type: 'text', content: '用户层定义。' } }],
};

/** Writes the two layers below `dir`; returns their folders in build order. */
export async function writeProtocolLayers(dir: string): Promise<{ base: string; user: string }> {
  const base = path.join(dir, 'proto-base');
  const user = path.join(dir, 'proto-user');
  await mkdir(base, { recursive: true });
  await mkdir(user, { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(
    path.join(base, 'layer.json'),
    json({ name: 'proto-base', kind: 'builtin', description: 'protocol test-list fixture', pvfVersions: ['90US', '90CN', '110US'] }),
  );
  await writeFile(path.join(base, 'annotations.json'), json(BASE_ANNOTATIONS));
  await writeFile(path.join(base, 'lists.json'), json(BASE_LISTS));
  await writeFile(path.join(base, 'rendering.json'), json(BASE_RENDERING));
  await writeFile(path.join(user, 'layer.json'), json({ name: 'proto-user', kind: 'user', description: 'overrides and disables', disable: ['rule:disabled.me'] }));
  await writeFile(path.join(user, 'annotations.json'), json(USER_ANNOTATIONS));
  return { base, user };
}

export const SWORD = 'equipment/character/Sword.equ';

/** Lines of the equipment file; written with CRLF. */
export const SWORD_LINES = [
  '#PVF_File',
  '[name]',
  '\t`苍穹之剑😀`',
  '[rarity]',
  '\t4',
  '[rarity]',
  '\t9',
  '[RARITY]',
  '\t2',
  '[rarity]',
  '\t7',
  '[growth]',
  '\t7',
  '[price]',
  '\t1000',
  '[old stat]',
  '\t3',
  '[weight]',
  '\t12',
  '[code]',
  '\t2500',
  '[upgrade item]',
  '\t100',
  '[upgrade item]',
  '\t999',
  '[skill levelup]',
  '\t`[fighter]`\t5\t1',
  '\t`[mage]`\t5\t1',
  '\t``\t5\t1',
  '[world drop]',
  '\t9\t`-1`\t100\t300\t-1\t9\t200\t500\t-1',
  '[level info]',
  '\t2\t10\t20\t30\t40',
  '[title]',
  '\t<3::sword_name>\t`😀`\t<3::no_such_key>',
  '',
];

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

export function protocolWorkspaceFiles(): Record<string, string | Uint8Array> {
  return {
    [SWORD]: SWORD_LINES.join('\r\n'),
    'equipment/equipment.lst': '100\t`character/sword.equ`\n101\t`character/gone.equ`\n',
    'equipment/equipment.kor.str': utf16le('sword_name>苍穹之剑\r\n'),
    'n_string.lst': '3\t`equipment/equipment.kor.str`\n',
    'stackable/stackable.lst': '200\t`potion.stk`\n',
    'stackable/potion.stk': '[name]\n\t`药水`\n',
    'skill/fighterskill.lst': '5\t`fighter/upper.skl`\n',
    'skill/fighter/upper.skl': '[name]\n\t`上挑`\n',
    'etc/links.lst': '1\t`equipment/character/sword.equ`\n2\t`no/such/file.equ`\n',
  };
}

/** Writes files (archive paths with "/") below root. */
export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const target = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}
