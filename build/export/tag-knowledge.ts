/**
 * What a snapshot knows about each section tag, per file type: the neutral model both editor formats
 * are written from (docs/editors.md). Only rules that say something about one named tag of a file type
 * take part; path notes, pattern sections (`sectionPattern`) and tokens before the first section have no
 * tag to hover, and are counted instead.
 */
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import type { AnnotationType, BundleDocument, TargetSpec, Trust, VariableRecords, WhenCondition } from '../../runtime/bundle/schema.js';
import { documentPageUrl } from '../../runtime/bundle/site-paths.js';
import { foldSectionName } from '../../runtime/script/parse-script-view.js';
import { trimSpace } from '../../runtime/script/trim-space.js';

/** Enum values listed per part; the rest is counted (the site page lists all of them). */
export const MAX_VALUES_SHOWN = 24;

/** One rule's contribution to a tag: the section itself, or tokens inside it. */
export interface TagPart {
  documentId: string;
  role: 'section' | 'token';
  title: string;
  content: string;
  /** Where the tokens are ("第 0 个 token"); null for the section itself. */
  position: string | null;
  type: AnnotationType;
  columns: readonly string[] | null;
  values: { shown: readonly (readonly [string, string])[]; total: number };
  sentinels: readonly (readonly [string, string])[];
  reference: { relation: string; listPaths: readonly string[] } | null;
  pathRoot: string | null;
  trust: Trust | null;
  /** Client versions the rule is restricted to ([] = every version). */
  pvfVersions: readonly string[];
  /** The path glob the rule is restricted to ("" = every file of the type). */
  glob: string;
  /** The files the rule applies to by another section's value (`target.when`; [] = every file). */
  when: readonly WhenCondition[];
  /** The rule names no file type, so it applies to every one. */
  anyExtension: boolean;
  layer: string;
  url: string | null;
}

export interface TagKnowledge {
  /** The tag as the first rule spells it, without brackets. */
  name: string;
  /** Case-folded name: how both editors look tags up. */
  key: string;
  /** True when the rules show the tag encloses other sections with a closing tag; null = not known. */
  closing: true | null;
  parts: TagPart[];
}

export interface ExtensionKnowledge {
  /** File type without the dot, lower case ("equ"). */
  ext: string;
  tags: TagKnowledge[];
}

export interface KnowledgeSet {
  rulesRevision: string;
  extensions: ExtensionKnowledge[];
  /** Effective rules that name no single tag of a file type, by why. */
  leftOut: { path: number; sectionPattern: number; topLevel: number; badExtension: number };
}

export interface CollectOptions {
  /** Base URL of the reference site; parts then carry their document's page. */
  siteUrl: string | null;
  /** Only rules effective for this client version; null = rules effective for any version. */
  pvfVersion: string | null;
}

const EXTENSION = /^\.[a-z0-9_]+$/;

/**
 * The tags of every file type the effective rules name. Rules without a file type apply to every file,
 * so they join every file type written. Order: file types by name, tags by folded name, parts in the
 * bundle's order with section parts first.
 */
export function collectTagKnowledge(bundle: Bundle, options: CollectOptions): KnowledgeSet {
  const effective = effectiveRuleIds(bundle, options.pvfVersion);
  const leftOut = { path: 0, sectionPattern: 0, topLevel: 0, badExtension: 0 };
  const byExt = new Map<string, BundleDocument[]>();
  const anyExt: BundleDocument[] = [];
  for (const doc of bundle.documents) {
    if (!effective.has(doc.documentId)) continue;
    const target = doc.resolved.target;
    if (target.kind === 'path') {
      leftOut.path++;
      continue;
    }
    if (target.sectionPattern !== null) {
      leftOut.sectionPattern++;
      continue;
    }
    if (target.topLevel || target.section === null || trimSpace(target.section) === '') {
      leftOut.topLevel++;
      continue;
    }
    const extensions = doc.resolved.match.extensions.map((e) => e.toLowerCase());
    if (extensions.length === 0) {
      anyExt.push(doc);
      continue;
    }
    const usable = extensions.filter((e) => EXTENSION.test(e));
    if (usable.length === 0) leftOut.badExtension++;
    for (const e of new Set(usable)) {
      const ext = e.slice(1);
      const list = byExt.get(ext) ?? [];
      list.push(doc);
      byExt.set(ext, list);
    }
  }
  const extensions = [...byExt.keys()].sort().map((ext) => {
    // Bundle order, so every file lists its parts in the order the layers give them.
    const docs = [...(byExt.get(ext) ?? []), ...anyExt].sort((a, b) => positionOf(bundle, a) - positionOf(bundle, b));
    return { ext, tags: tagsOf(bundle, ext, docs, options) };
  });
  return { rulesRevision: bundle.rulesRevision, extensions, leftOut };
}

/** The rules effective in the version context, or in any context (generated field rules included). */
function effectiveRuleIds(bundle: Bundle, pvfVersion: string | null): Set<string> {
  if (pvfVersion !== null) return new Set(bundle.ruleOrder[pvfVersion] ?? []);
  return new Set(Object.values(bundle.ruleOrder).flat());
}

function positionOf(bundle: Bundle, doc: BundleDocument): number {
  return bundle.positionById.get(doc.documentId) ?? Number.MAX_SAFE_INTEGER;
}

function tagsOf(bundle: Bundle, ext: string, docs: readonly BundleDocument[], options: CollectOptions): TagKnowledge[] {
  const tags = new Map<string, TagKnowledge>();
  for (const doc of docs) {
    const name = trimSpace(doc.resolved.target.section as string);
    const key = foldSectionName(name);
    let tag = tags.get(key);
    if (!tag) {
      tag = { name, key, closing: null, parts: [] };
      tags.set(key, tag);
    }
    tag.parts.push(partOf(bundle, doc, options));
  }
  const enclosing = enclosingSections(docs);
  const nestsWithoutClosing = nestingByRendering(bundle, ext);
  for (const tag of tags.values()) {
    tag.parts.sort((a, b) => (a.role === b.role ? 0 : a.role === 'section' ? -1 : 1));
    if (enclosing.has(tag.key) && !nestsWithoutClosing.has(tag.key)) tag.closing = true;
  }
  return [...tags.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Sections that rules of this file type name as an enclosing section (`parent`, `notInside`). A
 * section nests others only when it is closed by `[/name]` (rule-format §3.4) or a rendering rule
 * lets it nest without one (§3.5), so without such a rendering rule it has a closing tag.
 */
function enclosingSections(docs: readonly BundleDocument[]): Set<string> {
  const names = new Set<string>();
  for (const doc of docs) {
    const { parent, notInside } = doc.resolved.target;
    if (parent !== null) names.add(foldSectionName(trimSpace(parent)));
    for (const n of notInside ?? []) names.add(foldSectionName(trimSpace(n)));
  }
  return names;
}

function nestingByRendering(bundle: Bundle, ext: string): Set<string> {
  const names = new Set<string>();
  for (const rule of bundle.rendering) {
    if (rule.status !== 'effective' || rule.target.kind !== 'section' || rule.target.section === null) continue;
    const exts = rule.match.extensions.map((e) => e.trim().toLowerCase());
    if (exts.length > 0 && !exts.includes(`.${ext}`)) continue;
    if ((rule.format.nestedSections ?? []).length > 0) names.add(foldSectionName(trimSpace(rule.target.section)));
  }
  return names;
}

function partOf(bundle: Bundle, doc: BundleDocument, options: CollectOptions): TagPart {
  const annotation = doc.resolved.annotation;
  const values = annotation.type === 'enum' ? bundle.valuesOf(doc.documentId) : [];
  const relation = annotation.relation !== null ? bundle.relationsByName.get(annotation.relation) : undefined;
  return {
    documentId: doc.documentId,
    role: doc.resolved.target.kind === 'section' ? 'section' : 'token',
    title: annotation.title,
    content: annotation.content,
    position: doc.resolved.target.kind === 'section' ? null : positionLabel(doc.resolved.target),
    type: annotation.type,
    columns: annotation.columns,
    values: { shown: values.slice(0, MAX_VALUES_SHOWN), total: values.length },
    sentinels: annotation.sentinels ?? [],
    reference: annotation.relation !== null ? { relation: annotation.relation, listPaths: relation?.listPaths ?? [] } : null,
    pathRoot: annotation.pathRoot,
    trust: doc.trust,
    pvfVersions: doc.pvfVersions,
    glob: doc.resolved.match.glob.trim(),
    when: doc.resolved.target.when ?? [],
    anyExtension: doc.resolved.match.extensions.length === 0,
    layer: doc.layer,
    url: options.siteUrl !== null ? documentPageUrl(options.siteUrl, doc.documentId) : null,
  };
}

/** The record's key token in the notes' words: "首个", or "第 k 个" with keyAt. */
const keyWords = (v: VariableRecords): string => (v.keyAt === 0 ? '首个' : `第 ${v.keyAt} 个`);

/** How `variableRecords` cuts the section, in the notes' words ("每条 3 个；首个为 [SKILL_LEVEL] 的 4 个"). */
function variableRecordsWords(v: VariableRecords): string {
  const widths = [`每条 ${v.width} 个`, ...v.widthByFirst.map(([value, width]) => `${keyWords(v)}为 ${value} 的 ${width} 个`)];
  const tail = v.countAt !== null ? `，其第 ${v.countAt} 个是条数 N，其后再有 N 个` : '';
  return `变宽记录（${widths.join('；')}${tail}）`;
}

/** Which records a `variableRecords` rule takes ("首个为 [SKILL_LEVEL] 的记录的"; "" for all). */
function selectedRecordsWords(v: VariableRecords): string {
  if (v.first !== null) return `${keyWords(v)}为 ${v.first.join(' / ')} 的记录的`;
  if (v.notFirst !== null) return `${keyWords(v)}不是 ${v.notFirst.join(' / ')} 的记录的`;
  return '每条记录的';
}

/**
 * Which tokens of the section a token rule is about, in the words the builtin notes use (the target
 * forms of rule-format §2.3, runtime/explain/compute-anchors.ts).
 */
function positionLabel(target: TargetSpec): string {
  const groups = target.countedGroups;
  if (groups !== null) {
    const which = `第 ${groups.group + 1} 组（共 ${groups.widths.length} 组，每组先写条数）`;
    return groups.count ? `${which}的条数` : `${which}每条记录的第 ${target.index ?? 0} 个 token，每条 ${groups.widths[groups.group] ?? 0} 个`;
  }
  const variable = target.variableRecords;
  if (variable !== null) return `${variableRecordsWords(variable)}：${variable.tail ? `${selectedRecordsWords(variable)}条数之后的各个 token` : `${selectedRecordsWords(variable)}第 ${target.index ?? 0} 个 token`}`;
  const records = (target.recordTokens !== null && target.recordTokens > 0) || target.tokensPerLineIndex !== null;
  if (records) {
    const width = target.tokensPerLineIndex !== null ? `每条的宽度见第 ${target.tokensPerLineIndex} 个 token` : `每条 ${target.recordTokens} 个`;
    return target.index !== null ? `每条记录的第 ${target.index} 个 token，${width}` : `每条记录的各个 token，${width}`;
  }
  if (target.index !== null) return `第 ${target.index} 个 token`;
  if (target.range !== null) {
    const last = target.range.endExclusive - 1;
    return last <= target.range.start ? `第 ${target.range.start} 个 token` : `第 ${target.range.start}–${last} 个 token`;
  }
  return '节内的 token';
}
