/**
 * Groups of section names on a file type's page and in the sidebar (基本信息, 属性数值, 触发与条件, …), so a
 * type with hundreds of sections does not open with a flat list of English tags.
 *
 * The bundle carries a grouping for a few definitions only: `resolved.preview.group`, the part of an
 * item tooltip a value is drawn in (header, explain, trade, footer, requirement, stat, base-attribute,
 * skill; about two dozen builtin definitions). The document-level `group` holds the file type (equ, mob,
 * …), which says nothing here. So a section takes the group of a preview group among its definitions when
 * there is one, and otherwise the first group below one of whose words or phrases occurs in its name as
 * whole words (case-insensitive; an entry "=name" must be the whole name). A name that matches none (and every name in another script, such as
 * Korean section names) falls into 其他. The word lists are a reading aid, not a classification the rules
 * claim: they were written from the section names of the builtin layer (rules/builtin).
 */

export interface SectionGroupDef {
  key: string;
  label: string;
  /**
   * Words and phrases ("active status") that may occur anywhere in the section name, as whole words;
   * "=name" matches only the whole name.
   */
  words: readonly string[];
}

export const OTHER_GROUP: SectionGroupDef = { key: 'other', label: '其他', words: [] };

/** In display order; a name takes the first group that matches. */
export const SECTION_GROUPS: readonly SectionGroupDef[] = [
  { key: 'basic', label: '基本信息', words: ['=name', '=name2', '=rarity', '=grade', '=icon', '=weight', '=attach type', '=category', '=kind', '=index', '=id', '=sub type', '=job', 'item group name', 'equipment type', 'stackable type', 'growtype', 'species', 'rarity'] },
  { key: 'text', label: '说明文字', words: ['explain', 'comment', 'flavor', 'description', 'desc', 'message', 'speech', 'text', 'string', 'tooltip', 'title'] },
  { key: 'requirement', label: '使用条件', words: ['usable', 'required', 'require', 'requirement', 'minimum level', 'min level', 'level limit', 'allow', 'disallowance', 'only'] },
  { key: 'trade', label: '交易', words: ['price', '=value', 'cash', 'gold', 'coin', 'cost', 'sell', 'buy', 'trade', 'shop', 'durability', 'stack', 'stackable', 'seal'] },
  { key: 'skill', label: '技能', words: ['skill', 'skills', 'cooltime', 'cool time', 'cool', 'casting', 'command', 'combo', 'awakening', 'passive', 'mastery'] },
  {
    key: 'stats',
    label: '属性数值',
    words: [
      'attack', 'defense', 'defence', 'hp', 'mp', 'critical', 'resistance', 'speed', 'damage', 'element', 'elemental', 'physical', 'magical', 'absolute',
      'stuck', 'hit', 'stat', 'stats', 'ability', 'power', 'strength', 'intelligence', 'vitality', 'spirit', 'regen', 'recovery', 'drain', 'evasion',
      'accuracy', 'fire', 'water', 'light', 'dark', 'exp', 'experience', 'bonus', 'bonusrate', 'rate', 'fatigue',
    ],
  },
  { key: 'items', label: '物品与奖励', words: ['item', 'items', 'drop', 'reward', 'box', 'package', 'gift', 'mail', 'equipment', 'avatar', 'creature', 'booster', 'upgrade', 'disjoint'] },
  { key: 'triggers', label: '触发与条件', words: ['trigger', 'condition', 'on', 'when', 'if', 'check', 'event', 'after', 'before', 'success', 'attacksuccess', 'death', 'die', 'appear', 'start', 'end', 'probability', 'prob', 'random'] },
  { key: 'effects', label: '状态效果', words: ['appendage', 'buff', 'debuff', 'status', 'state', 'aura', 'effect', 'apply', 'change', 'curse', 'immune', 'super'] },
  { key: 'behavior', label: '动作与行为', words: ['action', 'move', 'movable', 'jump', 'dash', 'ai', 'targeting', 'target', 'pattern', 'behavior', 'sight', 'homing', 'throw', 'knock', 'hold', 'delay', 'duration', 'time', 'distance', 'range'] },
  { key: 'spawn', label: '生成与对象', words: ['spawn', 'create', 'creation', 'summon', 'object', 'monster', 'npc', 'mob', 'character', 'champion', 'boss', 'enemy', 'party', 'team', 'player', 'pet', 'apc'] },
  { key: 'layout', label: '外观与布局', words: ['ani', 'animation', 'motion', 'image', 'img', 'layer', 'pos', 'position', 'x', 'y', 'z', 'zpos', 'rect', 'size', 'width', 'height', 'wav', 'sound', 'color', 'dye', 'frame', 'scale', 'rotation', 'angle', 'direction', 'screen', 'draw', 'path', 'file', 'axis', 'ui', 'window', 'button'] },
  { key: 'world', label: '地图与任务', words: ['map', 'dungeon', 'town', 'area', 'region', 'world', 'tile', 'portal', 'gate', 'difficulty', 'hell', 'pvp', 'quest', 'mission', 'clear', 'altar', 'channel'] },
  OTHER_GROUP,
];

/** The section groups of the tooltip parts `preview.group` names (see the module comment). */
export const PREVIEW_GROUP_SECTION_GROUP: Readonly<Record<string, string>> = {
  header: 'basic',
  explain: 'text',
  requirement: 'requirement',
  trade: 'trade',
  footer: 'trade',
  stat: 'stats',
  'base-attribute': 'stats',
  skill: 'skill',
};

const GROUPS_BY_KEY = new Map(SECTION_GROUPS.map((g) => [g.key, g]));

/** The words of a section name: lower-case runs of letters and digits. */
function wordsOf(name: string): string[] {
  return name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}

function matches(words: readonly string[], phrase: string): boolean {
  if (phrase.startsWith('=')) return words.join(' ') === phrase.slice(1);
  const want = phrase.split(' ');
  for (let i = 0; i + want.length <= words.length; i++) {
    if (want.every((w, j) => words[i + j] === w)) return true;
  }
  return false;
}

/**
 * The group of a section: the first `previewGroups` entry with a known group, else the first group whose
 * words match the name, else 其他.
 */
export function sectionGroupOf(name: string, previewGroups: readonly string[] = []): SectionGroupDef {
  for (const p of previewGroups) {
    const key = PREVIEW_GROUP_SECTION_GROUP[p];
    const group = key === undefined ? undefined : GROUPS_BY_KEY.get(key);
    if (group) return group;
  }
  const words = wordsOf(name);
  if (words.length > 0) {
    for (const group of SECTION_GROUPS) if (group.words.some((phrase) => matches(words, phrase))) return group;
  }
  return OTHER_GROUP;
}
