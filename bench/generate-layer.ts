/**
 * Deterministic synthetic rule layer for the benchmark: pvfine-format `annotations.json`, `lists.json`
 * and `rendering.json` plus a `layer.json` (rule-format §1, ARCHITECTURE §3). Same seed, same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '../test/support/random.js';

export interface LayerSpec {
  seed: number;
  rules: number;
  fields: number;
  /** Enum values over all enum definitions (as authored; the bundle may repeat a field's values). */
  enumValues: number;
  enumDefinitions: number;
  /** Sizes of the few large enums (e.g. item-id → name maps), part of `enumValues`. */
  largeEnums: number[];
}

export const DEFAULT_SPEC: LayerSpec = {
  seed: 20240611,
  rules: 8_500,
  fields: 1_500,
  enumValues: 100_000,
  enumDefinitions: 1_000,
  largeEnums: [5_000, 5_000, 5_000, 5_000, 2_000, 2_000, 1_000, 1_000],
};

export interface GeneratedLayer {
  annotations: { version: 1; description: string; fields: Json[]; rules: Json[] };
  lists: { version: 1; description: string; relations: Record<string, Json> };
  rendering: { version: 1; description: string; rules: Json[] };
  layer: Json;
  stats: { rules: number; fields: number; enumDefinitions: number; enumValues: number; largestEnum: number; pathRules: number; referenceDefinitions: number; versionRestricted: number; fieldReferences: number; relations: number; renderingRules: number };
  /** Facts the query list picks from, so queries hit real content. */
  samples: { ruleIds: string[]; fieldIds: string[]; enumKeys: string[]; enumLabels: string[] };
}

type Json = Record<string, unknown>;

// test/build/suppression.test.ts still imports the PRNG from here under its old name.
export { seededRandom as createRandom };

const CHINESE_WORDS = [
  '攻击', '物理', '魔法', '防御', '力量', '智力', '体力', '精力', '技能', '等级', '冷却', '时间', '装备', '道具',
  '怪物', '地下城', '城镇', '商店', '任务', '掉落', '概率', '数量', '权重', '图标', '名称', '说明', '效果', '速度',
  '暴击', '命中', '回避', '属性', '强化', '增幅', '耐久', '重量', '售价', '职业', '宠物', '称号', '首饰', '武器',
  '防具', '套装', '稀有', '史诗', '传说', '神器', '副本', '地图', '动画', '帧', '图层', '坐标', '音效', '触发',
  '条件', '持续', '范围', '伤害', '百分比', '固定', '附加', '抗性', '火属性', '冰属性', '光属性', '暗属性', '减速',
  '眩晕', '霸体', '无敌', '觉醒', '被动', '主动', '消耗', '恢复', '生命', '魔力', '上限', '下限', '编号', '索引',
];

const ENGLISH_WORDS = ['attack', 'defense', 'skill', 'level', 'cool', 'drop', 'rate', 'item', 'monster', 'map', 'frame', 'layer', 'sound', 'bonus', 'limit', 'index', 'name', 'icon', 'value', 'weight'];

/** Section names of real PVF script files (pvf-tag-facts), plus modifiers to reach ~1 000 distinct. */
const SECTION_NAMES = [
  'name', 'name2', 'icon', 'rarity', 'minimum level', 'usable job', 'attach type', 'equipment type', 'item group name',
  'durability', 'weight', 'value', 'physical attack', 'magical attack', 'physical defense', 'magical defense',
  'cool time', 'skill levelup', 'skill data up', 'skill', 'input item', 'output item', 'independent drop', 'world drop',
  'item list', 'need material', 'level info', 'basic explain', 'detail explain', 'flavor text', 'animation',
  'attack info', 'hp max', 'mp max', 'move speed', 'attack speed', 'cast speed', 'hit recovery', 'jump power',
  'weight limit', 'ability category', 'dungeon', 'monster', 'passive object', 'town', 'area', 'background animation',
  'sound', 'tile', 'pathgate pos', 'special passive object', 'gate', 'boss', 'stuck', 'anti evil', 'fame value',
  'field image', 'small face', 'big face', 'popup face', 'IMAGE', 'DELAY', 'LOOP', 'damage box', 'attack box',
  'growtype name', 'etc', 'stackable', 'booster', 'category', 'command', 'static data', 'level property',
  'consume mp', 'casting time', 'required level', 'purchase cost', 'feature skill index', 'pvp', 'dungeon type',
];
const SECTION_MODIFIERS = ['add', 'bonus', 'pvp', 'dungeon', 'max', 'min', 'base', 'extra', 'special', 'awaken', 'party'];

const EXTENSIONS = ['.equ', '.stk', '.skl', '.mob', '.dgn', '.map', '.act', '.ani', '.chr', '.npc', '.obj', '.etc', '.shp', '.twn', '.qst', '.ai', '.apd', '.cre', '.ptl', '.til'];
/** Relative weights of EXTENSIONS: equipment and skills dominate real rule sets. */
const EXTENSION_WEIGHTS = [18, 10, 14, 9, 6, 6, 5, 6, 3, 3, 4, 3, 2, 2, 2, 1, 1, 2, 1, 2];

const GLOBS = [
  'equipment/character/**/*.equ', 'equipment/character/{job}/weapon/*.equ', 'monster/**', 'monster/{job}/*.mob',
  'skill/{job}/*.skl', 'map/*/town*.map', 'etc/itemdropinfo_*.etc', 'dungeon/[a-m]*.dgn', 'stackable/cash/**',
  'character/{job}/animation/*.ani', 'passiveobject/**/*.obj', 'npc/*.npc', 'sqr/**', 'etc/randomoption/*.etc',
];
const JOBS = ['swordman', 'fighter', 'gunner', 'mage', 'priest', 'thief', 'knight', 'demoniclancer', 'atswordman', 'atfighter', 'atgunner', 'atmage'];
const VERSIONS = ['90US', '90CN', '110US'];
const LIST_RELATIONS: [string, string][] = [
  ['装备', 'equipment/equipment.lst'], ['道具', 'stackable/stackable.lst'], ['apd', 'appendage/appendage.lst'],
  ['职业', 'character/character.lst'], ['宠物', 'creature/creature.lst'], ['地下城', 'dungeon/dungeon.lst'],
  ['商店', 'itemshop/itemshop.lst'], ['map', 'map/map.lst'], ['怪物', 'monster/monster.lst'], ['任务', 'n_quest/quest.lst'],
  ['npc', 'npc/npc.lst'], ['被动对象', 'passiveobject/passiveobject.lst'], ['区域', 'region/region.lst'],
  ['城镇', 'town/town.lst'], ['副本接口', 'worldmap/worldmap.lst'],
];
const PREVIEW_FORMATS = ['text', 'image', 'enum', 'enum-list', 'level', 'range', 'signed-number', 'percent', 'durability', 'weight', 'price'];

export function generateLayer(spec: LayerSpec = DEFAULT_SPEC): GeneratedLayer {
  const rand = seededRandom(spec.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const chance = (p: number) => rand() < p;
  const weighted = <T>(xs: readonly T[], weights: readonly number[]): T => {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = rand() * total;
    for (let i = 0; i < xs.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return xs[i] as T;
    }
    return xs[xs.length - 1] as T;
  };
  const words = (lo: number, hi: number) => Array.from({ length: int(lo, hi) }, () => pick(CHINESE_WORDS)).join('');
  const sentence = () => {
    const parts = Array.from({ length: int(2, 6) }, () => words(2, 5));
    let text = `${parts.join('，')}。`;
    if (chance(0.35)) text += ` English: ${Array.from({ length: int(3, 8) }, () => pick(ENGLISH_WORDS)).join(' ')}.`;
    return text;
  };
  const content = () => Array.from({ length: int(1, 4) }, sentence).join('\n');
  const section = () => (chance(0.6) ? pick(SECTION_NAMES) : `${pick(SECTION_MODIFIERS)} ${pick(SECTION_NAMES)}`);
  const slug = (s: string) => s.toLowerCase().replace(/\s+/g, '-');
  const extensions = () => {
    const n = chance(0.85) ? 1 : 2;
    return [...new Set(Array.from({ length: n }, () => weighted(EXTENSIONS, EXTENSION_WEIGHTS)))];
  };
  const glob = () => pick(GLOBS).replace('{job}', pick(JOBS));
  const versions = () => {
    const subset = VERSIONS.filter(() => chance(0.5));
    return subset.length > 0 ? subset : [pick(VERSIONS)];
  };

  // Relations: the builtin shape (15 lists, union 物品, contextual 技能) plus project-specific lists.
  const relations: Record<string, Json> = {};
  const listNames: string[] = [];
  const relationEntry = (listPath: string) => ({ kind: 'list', listPath, idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' });
  for (const [name, listPath] of LIST_RELATIONS) {
    relations[name] = relationEntry(listPath);
    listNames.push(name);
  }
  for (let i = 0; i < 25; i++) {
    const name = `${pick(CHINESE_WORDS)}列表${i}`;
    relations[name] = relationEntry(`custom/list${i}.lst`);
    listNames.push(name);
  }
  relations['物品'] = { kind: 'union', relations: ['装备', '道具'] };
  relations['技能'] = {
    kind: 'contextual',
    idToken: 0,
    pathToken: 1,
    recordTokens: 2,
    nameSection: 'name',
    contextToken: 0,
    contextPaths: Object.fromEntries(JOBS.map((j) => [`[${j}]`, `skill/${j}skill.lst`])),
  };
  const relationNames = [...listNames, '物品', '物品', '物品', '技能', '技能'];

  // Enum sizes: the large ones first, the rest spread (deterministically, unevenly) to the exact total.
  const smallCount = spec.enumDefinitions - spec.largeEnums.length;
  const smallTotal = spec.enumValues - spec.largeEnums.reduce((a, b) => a + b, 0);
  const raw = Array.from({ length: smallCount }, () => 1 + rand() * rand() * 8);
  const rawSum = raw.reduce((a, b) => a + b, 0);
  const small = raw.map((r) => Math.max(2, Math.floor((r * smallTotal) / rawSum)));
  for (let i = 0, rest = smallTotal - small.reduce((a, b) => a + b, 0); rest !== 0; i = (i + 1) % smallCount) {
    const step = rest > 0 ? 1 : -1;
    if (step < 0 && (small[i] ?? 0) <= 2) continue;
    small[i] = (small[i] ?? 0) + step;
    rest -= step;
  }
  // Which definitions are enums: seeded random positions among rules and fields.
  const enumSizes = [...spec.largeEnums, ...small];
  const enumFieldCount = Math.round(spec.enumDefinitions * (spec.fields / (spec.rules + spec.fields)));
  const fieldEnumSlots = new Map<number, number>();
  const ruleEnumSlots = new Map<number, number>();
  const shuffledIndexes = (n: number) => {
    const xs = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j] as number, xs[i] as number];
    }
    return xs;
  };
  const fieldSlots = shuffledIndexes(spec.fields).slice(0, enumFieldCount);
  const ruleSlots = shuffledIndexes(spec.rules).slice(0, spec.enumDefinitions - enumFieldCount);
  // One large enum goes to a field (shared item-name map), the others to rules.
  let sizeCursor = 0;
  const takeSize = () => enumSizes[sizeCursor++] as number;
  ruleEnumSlots.set(ruleSlots[0] as number, takeSize());
  fieldEnumSlots.set(fieldSlots[0] as number, takeSize());
  for (const slot of ruleSlots.slice(1, spec.largeEnums.length - 1)) ruleEnumSlots.set(slot, takeSize());
  const remaining = [...fieldSlots.slice(1).map((s) => ['f', s] as const), ...ruleSlots.slice(spec.largeEnums.length - 1).map((s) => ['r', s] as const)];
  for (const [kind, slot] of remaining) (kind === 'f' ? fieldEnumSlots : ruleEnumSlots).set(slot, takeSize());

  const enumKeys: string[] = [];
  const enumLabels: string[] = [];
  let enumIdBase = 100_000;
  const enumValues = (size: number): Record<string, string> => {
    const style = size > 500 ? 'id' : pick(['id', 'id', 'small', 'tag', 'word']);
    const out: Record<string, string> = {};
    const base = enumIdBase;
    enumIdBase += size + 1_000;
    for (let i = 0; i < size; i++) {
      let key: string;
      if (style === 'id') key = String(base + i);
      else if (style === 'small') key = String(i);
      else if (style === 'tag') key = `[${pick(ENGLISH_WORDS)} ${i}]`;
      else key = `${pick(ENGLISH_WORDS)}${i}`;
      const label = chance(0.15) ? `${words(1, 3)} ${pick(ENGLISH_WORDS)}` : words(1, 3);
      out[key] = label;
      if (i % 997 === 3 && enumKeys.length < 40) {
        enumKeys.push(key);
        enumLabels.push(label);
      }
    }
    return out;
  };

  const stats = { rules: spec.rules, fields: spec.fields, enumDefinitions: 0, enumValues: 0, largestEnum: 0, pathRules: 0, referenceDefinitions: 0, versionRestricted: 0, fieldReferences: 0, relations: Object.keys(relations).length, renderingRules: 0 };

  /** target + annotation for one definition; `enumSize` forces an enum. */
  const body = (enumSize: number | undefined, allowPath: boolean) => {
    const sec = section();
    const title = words(1, 3);
    const annotation: Json = { title, content: content() };
    let target: Json;
    const roll = rand();
    if (enumSize !== undefined) {
      target = { kind: 'token', section: sec, index: int(0, 3) };
      if (chance(0.2)) target = { kind: 'token', section: sec, recordTokens: 3, index: int(0, 2) };
      annotation.type = 'enum';
      annotation.values = enumValues(enumSize);
      stats.enumDefinitions++;
      stats.enumValues += enumSize;
      stats.largestEnum = Math.max(stats.largestEnum, enumSize);
    } else if (allowPath && roll < 0.04) {
      target = { kind: 'path' };
      annotation.type = 'text';
      stats.pathRules++;
    } else if (roll < 0.45) {
      target = { kind: 'section', section: sec };
      annotation.type = 'text';
    } else if (roll < 0.7) {
      target = { kind: 'token', section: sec, index: int(0, 5) };
      if (chance(0.1)) target = { kind: 'token', section: sec, range: { start: 1, endExclusive: int(2, 6) } };
      annotation.type = 'text';
    } else if (roll < 0.93) {
      const relation = pick(relationNames);
      annotation.type = 'reference';
      annotation.relation = relation;
      stats.referenceDefinitions++;
      if (relation === '技能') target = { kind: 'token', section: sec, recordTokens: 3, index: 1, ...(chance(0.5) ? { contextIndex: 0 } : {}) };
      else if (chance(0.15)) target = { kind: 'token', section: sec, offset: 1, recordTokens: int(2, 7), index: 1 };
      else if (chance(0.1)) target = { kind: 'token', section: sec, recordTokens: 2, index: 0, groupOffset: 2, standaloneValues: [-1] };
      else target = { kind: 'token', section: sec, index: int(0, 3) };
    } else {
      target = { kind: 'token', section: sec, recordTokens: 2, index: 1, imagePathToken: 0 };
      annotation.type = 'image';
      if (chance(0.5)) annotation.inlineImage = true;
    }
    return { sec, target, annotation };
  };

  const fields: Json[] = [];
  const fieldIds: string[] = [];
  for (let i = 0; i < spec.fields; i++) {
    const { sec, target, annotation } = body(fieldEnumSlots.get(i), false);
    const ext = extensions();
    const id = `${ext[0]?.slice(1) ?? 'any'}.${slug(sec)}.f${i}`;
    const field: Json = { id };
    if (chance(0.05)) {
      field.pvfVersions = versions();
      stats.versionRestricted++;
    }
    field.match = chance(0.9) ? { extensions: ext } : {};
    field.target = target;
    field.annotation = annotation;
    if (ext[0] === '.equ' && chance(0.5)) {
      field.preview = { provider: 'equ', role: slug(sec), group: pick(['header', 'attributes', 'explain', 'footer']), order: int(0, 99), format: pick(PREVIEW_FORMATS) };
    }
    fields.push(field);
    fieldIds.push(id);
  }

  const rules: Json[] = [];
  const ruleIds: string[] = [];
  for (let i = 0; i < spec.rules; i++) {
    const enumSize = ruleEnumSlots.get(i);
    const rule: Json = {};
    const usesField = enumSize === undefined && chance(0.15);
    let sec: string;
    if (usesField) {
      const fieldIndex = int(0, spec.fields - 1);
      const field = fields[fieldIndex] as Json;
      const fieldTarget = field.target as Json;
      sec = typeof fieldTarget.section === 'string' ? fieldTarget.section : 'path';
      const ext = ((field.match as Json).extensions as string[] | undefined)?.[0] ?? '.any';
      rule.id = `${ext.slice(1)}.${slug(sec)}.${i}`;
      rule.field = fieldIds[fieldIndex];
      stats.fieldReferences++;
      // Half of them replace the field's annotation block (pvfine: whole-block replacement).
      if (chance(0.5) && (field.annotation as Json).type === 'text') rule.annotation = { title: words(1, 3), type: 'text', content: content() };
      if (chance(0.3)) rule.match = { extensions: extensions() };
    } else {
      const made = body(enumSize, true);
      sec = made.sec;
      const isPath = made.target.kind === 'path';
      const ext = extensions();
      rule.id = `${isPath ? 'path' : (ext[0]?.slice(1) ?? 'any')}.${slug(sec)}.${i}`;
      if (isPath) rule.match = { glob: glob() };
      else if (chance(0.08)) rule.match = { extensions: ext, glob: glob() };
      else if (chance(0.9)) rule.match = { extensions: ext };
      rule.target = made.target;
      rule.annotation = made.annotation;
    }
    if (chance(0.08)) {
      rule.pvfVersions = versions();
      stats.versionRestricted++;
    }
    if (chance(0.7)) rule.description = sentence();
    if (chance(0.5)) rule.group = pick(['equ', 'skill', 'monster', 'map', 'drop', 'ui', 'shop']);
    rules.push(rule);
    ruleIds.push(rule.id as string);
  }

  const rendering: Json[] = [];
  for (let i = 0; i < 40; i++) {
    const fileScope = i % 8 === 0;
    rendering.push({
      id: `bench.render.${i}`,
      description: sentence(),
      match: { extensions: extensions() },
      target: fileScope ? { kind: 'file' } : { kind: 'section', section: section() },
      format: { tokensPerLine: int(1, 8), ...(chance(0.2) ? { offset: 1 } : {}) },
    });
  }
  stats.renderingRules = rendering.length;

  return {
    annotations: { version: 1, description: `基准测试生成的规则层 / synthetic benchmark layer (seed ${spec.seed})`, fields, rules },
    lists: { version: 1, description: 'synthetic benchmark relations', relations },
    rendering: { version: 1, description: 'synthetic benchmark rendering rules', rules: rendering },
    layer: { name: 'bench', kind: 'user', description: 'pvfdoc benchmark layer', pvfVersions: VERSIONS },
    stats,
    samples: { ruleIds, fieldIds, enumKeys, enumLabels },
  };
}

/** Writes the layer folder; returns the bytes of each file. */
export async function writeLayer(dir: string, layer: GeneratedLayer): Promise<Record<string, number>> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, unknown> = {
    'layer.json': layer.layer,
    'annotations.json': layer.annotations,
    'lists.json': layer.lists,
    'rendering.json': layer.rendering,
  };
  const sizes: Record<string, number> = {};
  for (const [name, value] of Object.entries(files)) {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    await writeFile(path.join(dir, name), text);
    sizes[name] = Buffer.byteLength(text);
  }
  return sizes;
}
