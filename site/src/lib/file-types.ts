/**
 * Chinese names of PVF file types, for the type index, the type pages and the sidebar.
 *
 * A name the rules give wins: a path rule that names exactly that one extension and no path pattern
 * annotates the file type itself (the builtin layer has them for .als, .lst, .str, .tbl and .lay), so its
 * title is the type's name. Every other extension takes its name from the table below, and an extension
 * in neither has no Chinese name (the page shows the extension alone).
 *
 * Where the names come from (this repository): the builtin layer's folder rules in
 * rules/builtin/annotations.json (`equipment/**` 装备, `monster/**` 怪物, `stackable/**` 消耗品, `aura/**`
 * 光环, `aicharacter/**` APC, `itemshop/**` NPC商店, `worldmap/**` …), the descriptions of the per-type
 * rule files in rules/builtin/annotations/*.json (.cmb 连击配置, .gdata 引导/帮助页, .ui 客户端界面控件,
 * .apd appendages) and the titles of their first rules (.act 动作块, .ani 动画帧, .ptl 粒子 coordinates,
 * .til 地砖图, .mm 小地图块, .dl 快速组队副本, …).
 */
import type { BundleDocument } from '../../../runtime/bundle/schema.js';

export const FILE_TYPE_NAMES: Readonly<Record<string, string>> = {
  '.act': '动作',
  '.ai': 'AI 脚本',
  '.aic': 'APC（AI 角色）',
  '.ani': '动画',
  '.apd': '附加状态',
  '.atk': '攻击信息',
  '.chr': '角色',
  '.cmb': '连击配置',
  '.co': '客户端配置（技能树）',
  '.dat': '数据表',
  '.dgn': '副本',
  '.dl': '快速组队副本',
  '.equ': '装备',
  '.etc': '杂项配置',
  '.gdata': '引导页',
  '.key': '按键序列',
  '.map': '地图',
  '.mm': '小地图',
  '.mob': '怪物',
  '.npc': 'NPC',
  '.obj': '被动对象',
  '.ora': '光环',
  '.pet': '宠物',
  '.ptl': '粒子',
  '.qst': '任务',
  '.rgn': '区域',
  '.shp': 'NPC 商店',
  '.skl': '技能',
  '.stk': '消耗品',
  '.til': '地砖',
  '.twn': '城镇',
  '.ui': '界面控件',
  '.wdm': '世界地图',
};

/** The title of a path rule that annotates files of exactly this one extension, anywhere. */
function ruleNameOf(docs: readonly BundleDocument[], extension: string): string | null {
  let name: string | null = null;
  for (const doc of docs) {
    if (doc.targetKind !== 'path' || doc.match.glob.trim() !== '' || doc.title.trim() === '') continue;
    const own = doc.match.extensions.map((e) => e.trim().toLowerCase());
    if (own.length !== 1 || own[0] !== extension) continue;
    // The effective definition wins over an overridden or disabled one.
    if (doc.status === 'effective') return doc.title.trim();
    name ??= doc.title.trim();
  }
  return name;
}

/** The Chinese name of a lower-cased extension (".equ"), given the documents that name it; "" when none. */
export function fileTypeName(extension: string, docs: readonly BundleDocument[]): string {
  return ruleNameOf(docs, extension) ?? FILE_TYPE_NAMES[extension] ?? '';
}
