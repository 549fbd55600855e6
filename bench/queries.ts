/**
 * The fixed query list: Chinese substrings, ids, section names and enum keys/labels, with and without
 * filters. Some are picked from the generated layer (by fixed position), so they hit real content.
 */
import type { SearchInput } from '../runtime/search/search-schema.js';
import type { GeneratedLayer } from './generate-layer.js';

export interface BenchQuery {
  /** Short label for the table. */
  label: string;
  category: 'chinese' | 'multi-word' | 'id' | 'section' | 'enum' | 'no-hit' | 'filtered' | 'filter-only';
  input: SearchInput;
}

export function buildQueries(samples: GeneratedLayer['samples']): BenchQuery[] {
  const at = <T>(xs: readonly T[], i: number, fallback: T): T => xs[Math.min(i, xs.length - 1)] ?? fallback;
  const rule = (i: number) => at(samples.ruleIds, i, 'equ.name.0');
  const field = (i: number) => at(samples.fieldIds, i, 'equ.name.f0');
  const enumKey = (i: number) => at(samples.enumKeys, i, '100003');
  const enumLabel = (i: number) => at(samples.enumLabels, i, '攻击');
  const all = { pvfVersion: 'all' } as const;
  const q = (category: BenchQuery['category'], input: SearchInput): BenchQuery => ({ label: describe(input), category, input });

  return [
    // Chinese substrings: whole pool words, parts of words, runs across word boundaries.
    q('chinese', { query: '攻击', ...all }),
    q('chinese', { query: '冷却', ...all }),
    q('chinese', { query: '觉醒', ...all }),
    q('chinese', { query: '霸体', ...all }),
    q('chinese', { query: '百分比', ...all }),
    q('chinese', { query: '地下城', ...all }),
    q('chinese', { query: '理攻', ...all }),
    q('chinese', { query: '下城掉', ...all }),
    q('chinese', { query: '暴击命中', ...all }),
    q('chinese', { query: '帧', ...all }),
    q('chinese', { query: '火属性伤害', ...all }),
    q('multi-word', { query: '物理 攻击', ...all }),
    q('multi-word', { query: '技能 冷却 时间', ...all }),
    q('multi-word', { query: '装备 稀有 效果', ...all }),
    q('multi-word', { query: 'english attack', ...all }),
    q('multi-word', { query: '掉落 monster', ...all }),
    // Ids and id fragments.
    q('id', { query: rule(4321), ...all }),
    q('id', { query: rule(17), ...all }),
    q('id', { query: field(77), ...all }),
    q('id', { query: 'skl.cool-time', ...all }),
    q('id', { query: 'equ.', ...all }),
    q('id', { query: 'path.', ...all }),
    // Section names, bare and bracketed.
    q('section', { query: 'rarity', ...all }),
    q('section', { query: '[skill levelup]', ...all }),
    q('section', { query: 'cool time', ...all }),
    q('section', { query: 'attack info', ...all }),
    q('section', { query: '[IMAGE]', ...all }),
    // Enum keys and labels (keys are ids such as 100003; labels are Chinese).
    q('enum', { query: enumKey(0), ...all }),
    q('enum', { query: enumKey(5), ...all }),
    q('enum', { query: enumLabel(3), ...all }),
    q('enum', { query: enumLabel(9), ...all }),
    q('enum', { query: '1002', ...all }),
    // Nothing matches.
    q('no-hit', { query: '不存在的词', ...all }),
    q('no-hit', { query: 'zzzqqq', ...all }),
    // With filters.
    q('filtered', { query: '攻击', extensions: ['.equ'], ...all }),
    q('filtered', { query: '攻击', extensions: ['.equ'], pvfVersion: '110US' }),
    q('filtered', { query: '技能', extensions: ['.skl', '.chr'], pvfVersion: '90CN' }),
    q('filtered', { query: '冷却', section: 'cool time', ...all }),
    q('filtered', { query: '名称', section: '[name]', pvfVersion: '90US' }),
    q('filtered', { query: '效果', kinds: ['field'], ...all }),
    q('filtered', { query: '物品', annotationTypes: ['reference'], ...all }),
    q('filtered', { query: '攻击', annotationTypes: ['enum'], pvfVersion: '110US' }),
    q('filtered', { query: enumKey(2), annotationTypes: ['enum'], ...all }),
    q('filtered', { query: '怪物', relation: '怪物', ...all }),
    q('filtered', { query: 'rarity', extensions: ['.equ', '.stk'], pvfVersion: '110US' }),
    q('filtered', { query: '掉落', targetKinds: ['path'], ...all }),
    q('filtered', { query: '属性', extensions: ['.mob'], section: 'attack info', pvfVersion: '90CN' }),
    q('filtered', { query: '不存在的词', extensions: ['.equ'], ...all }),
    // Filters only (no query words: every document is a candidate).
    q('filter-only', { extensions: ['.skl'], pvfVersion: '90CN' }),
    q('filter-only', { section: 'rarity', ...all }),
    q('filter-only', { annotationTypes: ['image'], pvfVersion: '110US' }),
    q('filter-only', { relation: '技能', ...all }),
  ];
}

function describe(input: SearchInput): string {
  const parts: string[] = [];
  if (input.query !== undefined) parts.push(JSON.stringify(input.query));
  if (input.extensions) parts.push(`ext=${input.extensions.join(',')}`);
  if (input.section !== undefined) parts.push(`section=${input.section}`);
  if (input.kinds) parts.push(`kinds=${input.kinds.join(',')}`);
  if (input.targetKinds) parts.push(`target=${input.targetKinds.join(',')}`);
  if (input.annotationTypes) parts.push(`type=${input.annotationTypes.join(',')}`);
  if (input.relation !== undefined) parts.push(`relation=${input.relation}`);
  if (input.pvfVersion !== undefined && input.pvfVersion !== 'all') parts.push(`v=${input.pvfVersion}`);
  return parts.join(' ');
}
