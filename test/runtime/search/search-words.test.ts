/**
 * Query words end to end: a bracketed group such as `[skill levelup]` stays one word, a one-character
 * Chinese word and a word across punctuation are found by substring, and the relevance score orders
 * matches by the best field each word is found in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { compileBundle, names, search, searchAll, writeTempLayer } from './helpers.js';

let bundle: Bundle;
let cleanup: () => Promise<void>;

const rule = (id: string, section: string, title: string, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  target: { kind: 'section', section },
  annotation: { type: 'text', title, content },
  ...extra,
});

beforeAll(async () => {
  const layer = await writeTempLayer({
    'layer.json': { name: 'words', kind: 'builtin', pvfVersions: ['110US'] },
    'annotations.json': {
      version: 1,
      fields: [
        {
          id: 'equ.rarity',
          target: { kind: 'token', section: 'rarity', index: 0 },
          annotation: { type: 'enum', title: '稀有度', content: '物品稀有度。', values: { '0': '普通', '4': '史诗', '9': '史诗之上' } },
        },
      ],
      rules: [
        rule('sec.levelup', 'skill levelup', '技能升级', '每级提升。'),
        rule('sec.levelup-pvp', 'skill levelup pvp', '决斗场技能升级', '决斗场用。'),
        rule('literal.bracket', 'misc', '说明', '见 [skill levelup] 段。'),
        rule('split.words', 'skill', '技能', 'levelup 与 skill 分开出现。'),
        rule('frame.end', 'ani', '动画帧', '每一帧'),
        rule('frame.space', 'ani2', '间隔', '帧 后面是空格'),
        rule('frame.none', 'ani3', '动画', '没有那个字'),
        rule('rank.title', 'r1', '冷却时间长短', '无关项。'),
        rule('rank.description', 'r2', '无关项目', '别的。', { description: '冷却时间的说明' }),
        rule('rank.content', 'r3', '无关项目', '这里提到冷却时间。'),
        // A word that is a whole enum label (or sentinel label, column title) outranks one in a content.
        rule('a.label.mentioned', 'r4', '攻击加成', '仅在背击时生效。'),
        rule('a.label.partial', 'r5', '条件', '无。', { target: { kind: 'token', section: 'r5', index: 0 }, annotation: { type: 'enum', title: '条件', content: '无。', values: { '1': '背击加成' } } }),
        rule('z.label.whole', 'r6', '攻击条件', '按方向。', { target: { kind: 'token', section: 'r6', index: 0 }, annotation: { type: 'enum', title: '攻击条件', content: '按方向。', values: { 'front attack': '正面', 'back attack': '背击' } } }),
        rule('z.sentinel.whole', 'r7', '目标', '编号。', { target: { kind: 'token', section: 'r7', index: 0 }, annotation: { type: 'enum', title: '目标', content: '编号。', values: { '1': '前方' }, sentinels: { '-1': '背击' } } }),
      ],
    },
  });
  cleanup = layer.cleanup;
  bundle = await compileBundle(layer.dir);
});

afterAll(() => cleanup());

function found(query: string): string[] {
  return names(searchAll(bundle, { pvfVersion: '110US', limit: 100, query }).items);
}

describe('search: bracketed groups', () => {
  it('keeps "[skill levelup]" as one word: the section equal to it first, then sections and texts containing it', () => {
    expect(found('[skill levelup]')).toEqual(['sec.levelup', 'sec.levelup-pvp', 'literal.bracket']);
    expect(found('[SKILL   LEVELUP]')).toEqual(found('[skill levelup]'));
  });

  it('does not match the words of the group apart from each other', () => {
    expect(found('[skill levelup]')).not.toContain('split.words');
    // Without brackets, the two words are two AND-ed words, as before.
    expect(found('skill levelup')).toEqual(expect.arrayContaining(['split.words', 'sec.levelup', 'literal.bracket']));
  });

  it('combines a group with other words', () => {
    expect(found('[skill levelup] 决斗')).toEqual(['sec.levelup-pvp']);
    expect(found('[skill levelup] 不存在')).toEqual([]);
  });

  it('gives the same results as the section filter for a section name with a space', () => {
    const bySection = names(searchAll(bundle, { pvfVersion: '110US', section: '[skill levelup]' }).items);
    expect(bySection).toEqual(['sec.levelup']);
    expect(found('[skill levelup]')[0]).toBe(bySection[0]);
  });
});

describe('search: substrings the index must not miss', () => {
  it('finds a one-character Chinese word at the end of a field and before a space', () => {
    expect(found('帧').sort()).toEqual(['frame.end', 'frame.space']);
  });

  it('finds a word across a punctuation boundary', () => {
    expect(found('equ.rarity').sort()).toEqual(['field equ.rarity', 'field:equ.rarity']);
    expect(found('u.rar').sort()).toEqual(['field equ.rarity', 'field:equ.rarity']);
    expect(found('。').length).toBeGreaterThan(3);
  });

  it('finds enum labels and reports the matched values in source order', () => {
    const out = search(bundle, { pvfVersion: '110US', query: '史诗', kinds: ['field'] });
    expect(out.items[0]?.matchedValues).toEqual([{ key: '4', label: '史诗' }, { key: '9', label: '史诗之上' }]);
  });
});

describe('search: relevance score', () => {
  it('ranks a word in the title before one in the description, before one only in the content', () => {
    expect(found('冷却时间')).toEqual(['rank.title', 'rank.description', 'rank.content']);
  });

  it('adds up each word by the best field it is found in, and orders ties by id', () => {
    // rank.description: 2 (description) + 3 (title) = 5; rank.title: 3 + 1 (content) = 4; rank.content: 1 + 3 = 4.
    expect(found('冷却时间 无关项')).toEqual(['rank.description', 'rank.content', 'rank.title']);
  });

  it('ranks a word that is a whole enum or sentinel label with the description, before a content or a part of a label', () => {
    expect(found('背击')).toEqual(['z.label.whole', 'z.sentinel.whole', 'a.label.mentioned', 'a.label.partial']);
  });

  it('puts an exact title before any score', () => {
    expect(found('无关项目 冷却')).toEqual(['rank.description', 'rank.content']);
    expect(found('冷却时间长短 冷却')[0]).toBe('rank.title');
  });
});
