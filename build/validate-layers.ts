/**
 * Semantic validation of loaded rule layers: every condition of pvfine's `Validate` (rule-format §1.10),
 * the rendering checks, and this project's layer additions (ARCHITECTURE §3: overrides across layers,
 * `disable`, declared `pvfVersions`). Every problem is reported, never just the first; each names its
 * layer, file and the most specific JSON path, and its message keeps pvfine's Chinese text followed by
 * an English clause saying what to change.
 *
 * Shape problems (unknown keys, wrong types, JSON syntax, key case) are the loader's; not repeated here.
 */
import { DEFAULT_PVF_VERSIONS } from '../runtime/bundle/constants.js';
import type { DefinitionKind } from '../runtime/bundle/schema.js';
import { globError, matchSectionPattern, sectionPatternError } from '../runtime/script/match-glob.js';
import type { AnnotationInput, FieldInput, MatchInput, RelationInput, TargetInput } from './input-schema.js';
import { LAYER_FILES, type LoadedLayer, type RelationItem, type SourceItem } from './load-layers.js';
import type { Problem } from './problems.js';
import { resolveFieldBlocks } from './resolve-field-blocks.js';

/** The versions pvfine knows; the valid set when no layer declares any. */

const DISABLE_KINDS = ['rule', 'field', 'relation', 'rendering'] as const;
type DisableKind = (typeof DISABLE_KINDS)[number];

type Block = 'match' | 'target' | 'annotation';

interface MergedRelation {
  layer: LoadedLayer;
  item: RelationItem;
}

interface Context {
  versions: readonly string[];
  /** Field id → effective definition (last layer wins; inside one layer the first, as pvfine looks up). */
  fields: ReadonlyMap<string, FieldInput>;
  /** Relation name → effective definition (last layer wins). */
  relations: ReadonlyMap<string, MergedRelation>;
}

export function validateLayers(layers: readonly LoadedLayer[]): Problem[] {
  const problems: Problem[] = [];
  const versions = declaredVersions(layers, problems);
  const context: Context = { versions, fields: mergedFields(layers), relations: mergedRelations(layers) };
  const unionProblems = checkUnions(context.relations, layers);
  for (const [position, layer] of layers.entries()) {
    checkDisable(layer, layers.slice(0, position), problems);
    for (const item of layer.relations) checkRelation(layer, item, problems);
    problems.push(...(unionProblems.get(layer) ?? []));
    checkFields(layer, context, problems);
    checkRules(layer, context, problems);
    checkRendering(layer, problems);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Reporting

function message(chinese: string, english: string): string {
  return `${chinese} — ${english}`;
}

/** Reports problems of one definition at paths below its own (`$.rules[3]` + `.target.index`). */
class Reporter {
  readonly prefix: string;

  constructor(
    private readonly layer: LoadedLayer,
    private readonly item: SourceItem<unknown>,
    private readonly problems: Problem[],
    private readonly field: { id: string; fromField: Record<Block, boolean> } | null = null,
  ) {
    this.prefix = item.path.replace(/^\$\./, '');
  }

  /** A problem that does not stop the build (same message shape as add, without the field note). */
  warn(subPath: string, chinese: string, english: string): void {
    this.problems.push({ severity: 'warning', layer: this.layer.name, file: this.item.file, path: this.item.path + subPath, message: message(this.prefix + chinese, english) });
  }

  /** `chinese` starts right after the prefix (".id 不能为空", " 的 path 标注…"); `blocks` are the blocks the check reads. */
  add(subPath: string, chinese: string, english: string, blocks: readonly Block[] = []): void {
    let text = message(this.prefix + chinese, english);
    const inherited = this.field ? blocks.filter((b) => this.field?.fromField[b]) : [];
    if (this.field && inherited.length > 0) {
      const list = inherited.join(' and ');
      const verb = inherited.length > 1 ? 'come' : 'comes';
      text += ` (the ${list} ${verb} from field "${this.field.id}": fix the field, or give this rule its own ${inherited.join('/')})`;
    }
    this.problems.push({ severity: 'error', layer: this.layer.name, file: this.item.file, path: this.item.path + subPath, message: text });
  }
}

// ---------------------------------------------------------------------------------------------------
// layer.json

function declaredVersions(layers: readonly LoadedLayer[], problems: Problem[]): readonly string[] {
  const versions: string[] = [];
  for (const layer of layers) {
    layer.pvfVersions.forEach((version, k) => {
      if (version.trim() === '' || /\s/.test(version)) {
        problems.push({
          severity: 'error',
          layer: layer.name,
          file: LAYER_FILES.manifest,
          path: `$.pvfVersions[${k}]`,
          message: `pvfVersions entry ${JSON.stringify(version)} is blank or contains whitespace — write a client version name without spaces, such as "110US"`,
        });
      } else if (!versions.includes(version)) {
        versions.push(version);
      }
    });
  }
  return versions.length > 0 ? versions : [...DEFAULT_PVF_VERSIONS];
}

function checkDisable(layer: LoadedLayer, earlier: readonly LoadedLayer[], problems: Problem[]): void {
  layer.disable.forEach((entry, k) => {
    const report = (text: string): void => {
      problems.push({ severity: 'error', layer: layer.name, file: LAYER_FILES.manifest, path: `$.disable[${k}]`, message: text });
    };
    const colon = entry.indexOf(':');
    const kind = entry.slice(0, colon);
    const id = entry.slice(colon + 1);
    if (colon < 0 || !isDisableKind(kind) || id.trim() === '') {
      report(
        `disable entry ${JSON.stringify(entry)} is not an identity — write rule:<id>, field:<id>, relation:<name> or rendering:<id>, e.g. "rule:global.cool time"`,
      );
      return;
    }
    if (earlier.some((l) => definesIdentity(l, kind, id))) return;
    const own = definesIdentity(layer, kind, id) ? ' (only this layer defines it: delete the definition instead of disabling it)' : '';
    report(`disable names ${kind}:${id}, which no earlier layer defines — check the id or remove the entry${own}`);
  });
}

function isDisableKind(kind: string): kind is DisableKind {
  return (DISABLE_KINDS as readonly string[]).includes(kind);
}

function definesIdentity(layer: LoadedLayer, kind: DisableKind, id: string): boolean {
  switch (kind) {
    case 'rule':
      return layer.rules.some((r) => r.input.id === id);
    case 'field':
      return layer.fields.some((f) => f.input.id === id);
    case 'relation':
      return layer.relations.some((r) => r.name === id);
    case 'rendering':
      // pvfine compares rendering ids trimmed.
      return layer.rendering.some((r) => (r.input.id ?? '').trim() === id.trim());
  }
}

// ---------------------------------------------------------------------------------------------------
// Merged definitions (references resolve against all layers; the last definition of a name wins)

function mergedFields(layers: readonly LoadedLayer[]): Map<string, FieldInput> {
  const merged = new Map<string, FieldInput>();
  for (const layer of layers) {
    const own = new Set<string>();
    for (const item of layer.fields) {
      const id = item.input.id ?? '';
      if (own.has(id)) continue;
      own.add(id);
      merged.set(id, item.input);
    }
  }
  return merged;
}

function mergedRelations(layers: readonly LoadedLayer[]): Map<string, MergedRelation> {
  const merged = new Map<string, MergedRelation>();
  for (const layer of layers) for (const item of layer.relations) merged.set(item.name, { layer, item });
  return merged;
}

// ---------------------------------------------------------------------------------------------------
// Relations

function checkRelation(layer: LoadedLayer, item: RelationItem, problems: Problem[]): void {
  const relation = item.input;
  const name = item.name;
  const p = `relations.${name}`;
  // The relation prefix is the name, not the JSON path, so messages read like pvfine's.
  const add = (subPath: string, chinese: string, english: string): void => {
    problems.push({ severity: 'error', layer: layer.name, file: item.file, path: item.path + subPath, message: message(chinese, english) });
  };
  if (name.trim() === '') add('', 'relation 名称不能为空', 'give the relation a non-blank name (the key in "relations")');
  const kind = (relation.kind ?? '') === '' ? 'list' : (relation.kind as string);
  if (kind !== 'list' && kind !== 'contextual' && kind !== 'union') {
    add('.kind', `${p}.kind 必须是 list、contextual 或 union`, `set kind to "list" (or leave it out), "contextual" or "union" (got ${JSON.stringify(kind)})`);
  }
  if (kind === 'union') {
    const members = relation.relations ?? [];
    if (members.length === 0) add('.relations', `${p}.relations 不能为空`, 'list the member relations to try in order, e.g. ["装备", "道具"]');
    const bad = members.findIndex((m) => m.trim() === '' || m === name);
    if (bad >= 0) {
      add(
        `.relations[${bad}]`,
        `${p}.relations 包含无效关联类型`,
        members[bad]?.trim() === '' ? 'remove the blank member name' : 'a union cannot list itself; remove that member',
      );
    }
    return;
  }
  if (kind === 'list' && (relation.listPath ?? '').trim() === '') {
    add('.listPath', `${p}.listPath 不能为空`, 'set listPath to the registry .lst file, e.g. "equipment/equipment.lst"');
  }
  const idToken = relation.idToken ?? 0;
  const pathToken = relation.pathToken ?? 0;
  const negative = (['idToken', 'pathToken', 'contextToken'] as const).find((key) => (relation[key] ?? 0) < 0);
  if (negative !== undefined) add(`.${negative}`, `${p} 的 token 下标不能为负数`, `make ${negative} a 0-based index ≥ 0`);
  let recordTokensBad = false;
  if (kind === 'contextual') {
    const contextPaths = item.contextPaths ?? Object.entries(relation.contextPaths ?? {});
    if (contextPaths.length === 0) {
      add('.contextPaths', `${p}.contextPaths 不能为空`, 'map each context value to its list file, e.g. {"[fighter]": "skill/fighterskill.lst"}');
    }
    const blank = contextPaths.find(([context, listPath]) => context.trim() === '' || listPath.trim() === '');
    if (blank) {
      add(`.contextPaths[${JSON.stringify(blank[0])}]`, `${p}.contextPaths 的键和值不能为空`, 'give every context a non-blank key and list path');
    }
    const explicit = relation.recordTokens ?? 0;
    if (explicit <= idToken || explicit <= pathToken) recordTokensBad = true;
  }
  const explicit = relation.recordTokens ?? 0;
  const effective = explicit === 0 ? Math.max(idToken, pathToken) + 1 : explicit;
  if (effective <= idToken || effective <= pathToken) recordTokensBad = true;
  if (recordTokensBad) {
    add(
      '.recordTokens',
      `${p}.recordTokens 必须覆盖 idToken 和 pathToken`,
      kind === 'contextual'
        ? `contextual relations need an explicit recordTokens greater than idToken (${idToken}) and pathToken (${pathToken})`
        : `set recordTokens greater than idToken (${idToken}) and pathToken (${pathToken}), or leave it out`,
    );
  }
  if ((relation.nameSection ?? '').trim() === '') {
    add('.nameSection', `${p}.nameSection 不能为空`, 'set nameSection to the section holding the display name, usually "name"');
  }
}

/**
 * Union member and cycle checks on the merged relation set. A missing member is reported at the union
 * that lists it; a cycle once, at the union of the latest layer on it (the one that closed the loop).
 */
function checkUnions(relations: ReadonlyMap<string, MergedRelation>, layers: readonly LoadedLayer[]): Map<LoadedLayer, Problem[]> {
  const out = new Map<LoadedLayer, Problem[]>();
  const push = (where: MergedRelation, subPath: string, text: string): void => {
    const list = out.get(where.layer) ?? [];
    list.push({ severity: 'error', layer: where.layer.name, file: where.item.file, path: where.item.path + subPath, message: text });
    out.set(where.layer, list);
  };
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): void => {
    const seen = state.get(name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const members = stack.slice(stack.indexOf(name));
      let at = name;
      for (const member of members) {
        const a = relations.get(member);
        const b = relations.get(at);
        if (a && b && layers.indexOf(a.layer) > layers.indexOf(b.layer)) at = member;
      }
      const where = relations.get(at);
      if (where) {
        const from = members.indexOf(at);
        const cycle = [...members.slice(from), ...members.slice(0, from), at].join(' → ');
        push(where, '.relations', message(`relations.${at} 存在循环引用`, `the union reaches itself through its members (${cycle}); remove one member of that cycle`));
      }
      return;
    }
    const entry = relations.get(name);
    if (!entry || entry.item.input.kind !== 'union') {
      state.set(name, 'done');
      return;
    }
    state.set(name, 'visiting');
    stack.push(name);
    (entry.item.input.relations ?? []).forEach((member, k) => {
      // Blank and self members are reported by the per-relation check.
      if (member.trim() === '' || member === name) return;
      if (!relations.has(member)) {
        push(
          entry,
          `.relations[${k}]`,
          message(
            `relations.${name} 引用了不存在的 relation: ${member}`,
            `define relation "${member}" in lists.json of this or another layer, or fix the member name`,
          ),
        );
        return;
      }
      visit(member);
    });
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of relations.keys()) visit(name);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Fields and rules

function checkFields(layer: LoadedLayer, context: Context, problems: Problem[]): void {
  const firstById = new Map<string, string>();
  for (const item of layer.fields) {
    const field = item.input;
    const rep = new Reporter(layer, item, problems);
    checkId(rep, field.id ?? '', placeOf(item), firstById, 'field');
    checkVersions(rep, field.pvfVersions, context.versions);
    checkSources(rep, field.sources);
    checkBlocks(rep, { match: field.match ?? {}, target: field.target ?? {}, annotation: field.annotation ?? {} }, context);
    const preview = field.preview;
    if (preview) {
      const providers = [preview.provider ?? '', ...(preview.providers ?? [])].filter((p) => p.trim() !== '');
      if (providers.length === 0) {
        rep.add('.preview.provider', '.preview.provider 不能为空', 'set preview.provider (or preview.providers) to a preview provider name such as "equ"');
      }
      for (const key of ['role', 'group', 'format'] as const) {
        if ((preview[key] ?? '').trim() === '') {
          rep.add(`.preview.${key}`, `.preview.${key} 不能为空`, `set preview.${key} to a non-blank name (it is opaque to the build, e.g. ${previewExample(key)})`);
        }
      }
    }
  }
}

function previewExample(key: 'role' | 'group' | 'format'): string {
  return key === 'role' ? '"name"' : key === 'group' ? '"basic"' : '"text"';
}

function checkRules(layer: LoadedLayer, context: Context, problems: Problem[]): void {
  const firstById = new Map<string, string>();
  for (const item of layer.rules) {
    const rule = item.input;
    const plain = new Reporter(layer, item, problems);
    checkId(plain, rule.id ?? '', placeOf(item), firstById, 'rule');
    checkVersions(plain, rule.pvfVersions, context.versions);
    checkSources(plain, rule.sources);
    const fieldId = (rule.field ?? '').trim();
    let field: FieldInput | undefined;
    if (fieldId !== '') {
      field = context.fields.get(fieldId);
      if (field === undefined) {
        problems.push({
          severity: 'error',
          layer: layer.name,
          file: item.file,
          path: `${item.path}.field`,
          message: message(
            `${plain.prefix}: 引用了不存在的共享字段: ${fieldId}`,
            `define a field with id "${fieldId}" in the fields of this or another layer, or fix the name`,
          ),
        });
        continue;
      }
    }
    const resolved = resolveFieldBlocks(rule, field);
    const rep = field ? new Reporter(layer, item, problems, { id: fieldId, fromField: resolved.fromField }) : plain;
    checkBlocks(rep, resolved, context);
  }
}

/** Where a definition stands, for messages: the JSON path, with its file when a layer has several rule files. */
function placeOf(item: SourceItem<unknown>): string {
  return item.file === LAYER_FILES.annotations ? item.path : `${item.file} ${item.path}`;
}

function checkId(rep: Reporter, id: string, path: string, firstById: Map<string, string>, noun: DefinitionKind): void {
  if (id.trim() === '') {
    rep.add('.id', '.id 不能为空', `give the ${noun} a non-blank id`);
  } else {
    const first = firstById.get(id);
    if (first !== undefined) {
      rep.add(
        '.id',
        `.id 重复: ${id}`,
        `${noun} ids must be unique within a layer and ${first} already uses "${id}"; rename one (to replace a ${noun} of an earlier layer, define it in a later layer)`,
      );
    } else {
      firstById.set(id, path);
    }
  }
}

function checkVersions(rep: Reporter, versions: readonly string[] | undefined, valid: readonly string[]): void {
  (versions ?? []).forEach((version, k) => {
    if (valid.includes(version)) return;
    rep.add(
      `.pvfVersions[${k}]`,
      `.pvfVersions 包含无效版本 ${JSON.stringify(version)}，只允许 ${valid.join('、')}`,
      `use one of ${valid.join(', ')} (case-sensitive), or declare the version in a layer.json "pvfVersions"`,
    );
  });
}

/** pvfdoc extension `sources`: source keys such as "OFF/equipmentsample.equ"; none may be blank. */
function checkSources(rep: Reporter, sources: readonly string[] | undefined): void {
  (sources ?? []).forEach((source, k) => {
    if (source.trim() !== '') return;
    rep.add(`.sources[${k}]`, '.sources 不能包含空字符串', 'write each source key, e.g. "OFF/equipmentsample.equ", or remove the blank entry');
  });
}

interface Blocks {
  match: MatchInput;
  target: TargetInput;
  annotation: AnnotationInput;
}

const T: readonly Block[] = ['target'];
const A: readonly Block[] = ['annotation'];
const TA: readonly Block[] = ['target', 'annotation'];

function checkBlocks(rep: Reporter, blocks: Blocks, context: Context): void {
  checkMatch(rep, blocks.match);
  checkTarget(rep, blocks.target, blocks.annotation);
  checkAnnotation(rep, blocks.target, blocks.annotation, context);
}

function checkMatch(rep: Reporter, match: MatchInput): void {
  const extensions = match.extensions ?? [];
  const bad = extensions.findIndex((e) => e === '' || !e.startsWith('.') || /[/\\]/.test(e));
  if (bad >= 0) {
    rep.add(
      `.match.extensions[${bad}]`,
      '.match.extensions 必须是以点开头的文件后缀',
      `write each extension with its leading dot and no "/" or "\\", e.g. ".equ" (got ${JSON.stringify(extensions[bad])})`,
      ['match'],
    );
  }
  const glob = match.glob ?? '';
  if (glob !== '') {
    const error = globError(glob);
    if (error !== null) {
      rep.add('.match.glob', `.match.glob 无效: ${error}`, 'fix the pattern: each segment uses Go path.Match syntax (*, ?, [a-z], [^...]) and "**" spans folders', ['match']);
    }
  }
}

/** The first repeated-record parameter that is set (Go zero values count as unset), or null. */
function repeatedKey(target: TargetInput): 'offset' | 'groupOffset' | 'standaloneValues' | 'tokensPerLineIndex' | null {
  if ((target.offset ?? 0) !== 0) return 'offset';
  if ((target.groupOffset ?? 0) !== 0) return 'groupOffset';
  if ((target.standaloneValues ?? []).length > 0) return 'standaloneValues';
  if (target.tokensPerLineIndex !== undefined) return 'tokensPerLineIndex';
  return null;
}

function checkTarget(rep: Reporter, target: TargetInput, annotation: AnnotationInput): void {
  const kind = target.kind ?? '';
  const type = annotation.type ?? '';
  const repeated = repeatedKey(target);
  // pvfdoc's topLevel / sectionPattern stand in for target.section (checkSectionChoice).
  const sectionBlank = (target.section ?? '').trim() === '' && target.topLevel !== true && target.sectionPattern === undefined;
  const blankSection = (): void =>
    rep.add('.target.section', '.target.section 不能为空', 'set target.section to the section name without brackets, e.g. "name" for [name]', T);
  const notForKind = (): void => {
    if (repeated !== null) {
      rep.add(
        `.target.${repeated}`,
        ' 的 offset/tokensPerLineIndex 只允许用于 token 标注',
        `remove target.${repeated}: offset, groupOffset, standaloneValues and tokensPerLineIndex only apply to token targets`,
        T,
      );
    }
  };
  checkScope(rep, target, kind);
  checkWhen(rep, target, kind);
  if (target.countedGroups !== undefined && kind !== 'token') {
    rep.add('.target.countedGroups', '.target.countedGroups 只允许用于 token 标注', 'count-prefixed groups are read from a section\'s tokens: use target.kind "token", or remove target.countedGroups', T);
  }
  if (target.variableRecords !== undefined && kind !== 'token') {
    rep.add('.target.variableRecords', '.target.variableRecords 只允许用于 token 标注', 'records are read from a section\'s tokens: use target.kind "token", or remove target.variableRecords', T);
  }
  checkSectionChoice(rep, target, kind);
  if (annotation.columns !== undefined && kind !== 'token') {
    rep.add(
      '.annotation.columns',
      '.annotation.columns 只允许用于 token 标注',
      'annotation.columns names the columns of repeated records: use a token target with target.recordTokens, or remove annotation.columns',
      TA,
    );
  }
  switch (kind) {
    case 'path':
      notForKind();
      if (type !== 'text') rep.add('.annotation.type', ' 的 path 标注只支持 text 类型', 'a path target (file tree tag) takes annotation.type "text"', TA);
      return;
    case 'section':
      notForKind();
      if (sectionBlank) blankSection();
      if (type !== 'text') rep.add('.annotation.type', ' 的 section 标注只支持 text 类型', 'a section target takes annotation.type "text"; use a token target for other types', TA);
      return;
    case 'token':
      if (target.variableRecords !== undefined) checkVariableRecordsTarget(rep, target, annotation, sectionBlank ? blankSection : null);
      else if (target.countedGroups !== undefined) checkCountedGroupsTarget(rep, target, annotation, sectionBlank ? blankSection : null);
      else if (annotation.columns !== undefined) checkColumnsTarget(rep, target, type, sectionBlank ? blankSection : null);
      else checkTokenTarget(rep, target, type, repeated, sectionBlank ? blankSection : null);
      return;
    default:
      rep.add(
        '.target.kind',
        '.target.kind 必须是 path、section 或 token',
        `set target.kind to "path", "section" or "token"${kind === '' ? '' : ` (got ${JSON.stringify(kind)}; "file" exists only in rendering rules)`}`,
        T,
      );
  }
}

/**
 * pvfdoc extensions `target.parent` / `target.notInside` / `target.after`: where the section must sit.
 * Section and token targets only (a path target has no section), and every name must be non-blank.
 */
function checkScope(rep: Reporter, target: TargetInput, kind: string): void {
  const { parent, notInside, after } = target;
  if (kind === 'path') {
    if (after !== undefined) {
      rep.add('.target.after', '.target.after 只允许用于 section 或 token 标注', 'a path target has no section to follow another: remove target.after', T);
    }
    if (parent !== undefined) {
      rep.add('.target.parent', '.target.parent 只允许用于 section 或 token 标注', 'a path target has no section to sit inside: remove target.parent', T);
    }
    if (notInside !== undefined) {
      rep.add('.target.notInside', '.target.notInside 只允许用于 section 或 token 标注', 'a path target has no section to sit inside: remove target.notInside', T);
    }
    return;
  }
  if (parent !== undefined && parent.trim() === '') {
    rep.add(
      '.target.parent',
      '.target.parent 不能为空',
      'name the direct enclosing section without brackets, e.g. "skill apply condition", or remove target.parent',
      T,
    );
  }
  (notInside ?? []).forEach((name, k) => {
    if (name.trim() !== '') return;
    rep.add(
      `.target.notInside[${k}]`,
      '.target.notInside 不能包含空名称',
      'name each enclosing section to exclude without brackets, e.g. "skill apply condition", or remove the blank entry',
      T,
    );
  });
  if (after !== undefined && after.length === 0) {
    rep.add('.target.after', '.target.after 至少需要一个段名', 'name the sections that must come right before, e.g. ["set action"], or remove target.after', T);
  }
  (after ?? []).forEach((name, k) => {
    if (name.trim() !== '') return;
    rep.add(`.target.after[${k}]`, '.target.after 不能包含空名称', 'name each section that may come right before without brackets, e.g. "set action", or remove the blank entry', T);
  });
}

/** Most conditions one `target.when` may list: a rule that needs more is several rules. */
const MAX_WHEN_CONDITIONS = 4;

/**
 * pvfdoc extension `target.when`: 1–4 conditions, each naming a section (non-blank), a token index ≥ 0
 * and at least one value. Section and token targets only: a path rule describes the file before it is read.
 */
function checkWhen(rep: Reporter, target: TargetInput, kind: string): void {
  const { when } = target;
  if (when === undefined) return;
  if (kind === 'path') {
    rep.add('.target.when', '.target.when 只允许用于 section 或 token 标注', 'a path target describes the file itself, before its sections are read: remove target.when', T);
    return;
  }
  if (when.length === 0 || when.length > MAX_WHEN_CONDITIONS) {
    rep.add(
      '.target.when',
      `.target.when 需要 1 到 ${MAX_WHEN_CONDITIONS} 个条件`,
      when.length === 0
        ? 'list at least one condition, e.g. [{ "section": "type", "values": ["[seeking]"] }], or remove target.when'
        : `list at most ${MAX_WHEN_CONDITIONS} conditions (all must hold); split the rule into several rules`,
      T,
    );
  }
  when.forEach((condition, k) => {
    const at = `.target.when[${k}]`;
    if (condition.section.trim() === '') {
      rep.add(`${at}.section`, `${at}.section 不能为空`, 'name the section whose value decides, without brackets, e.g. "type" for [type]', T);
    }
    if ((condition.index ?? 0) < 0) {
      rep.add(`${at}.index`, `${at}.index 不能为负数`, 'give the 0-based index of the deciding token in that section (0 = its first token), or leave index out', T);
    }
    if (condition.values.length === 0) {
      rep.add(`${at}.values`, `${at}.values 至少需要一个值`, 'list the values that select this rule, as canonical token values, e.g. ["[seeking]"] or ["10"]', T);
    }
  });
}

/** Most groups one `target.countedGroups` may describe. */
const MAX_COUNTED_GROUPS = 8;

/** Keys of repeated records that `countedGroups` replaces (their meaning would clash with the groups'). */
const NOT_WITH_COUNTED_GROUPS = ['recordTokens', 'range', 'groupOffset', 'standaloneValues', 'tokensPerLineIndex', 'imagePathToken'] as const;

/**
 * pvfdoc extension `target.countedGroups` on a token target: 1–8 widths ≥ 1, a group among them, and
 * either `count: true` (the group's count token; no index) or an `index` inside the group's records;
 * `offset` (≥ 0) and `contextIndex` (inside the record) as usual; none of the other repeated-record keys,
 * no `annotation.columns`, no image.
 */
function checkCountedGroupsTarget(rep: Reporter, target: TargetInput, annotation: AnnotationInput, blankSection: (() => void) | null): void {
  const groups = target.countedGroups;
  if (groups === undefined) return;
  blankSection?.();
  const at = '.target.countedGroups';
  const { widths } = groups;
  const group = groups.group ?? 0;
  if (widths.length === 0 || widths.length > MAX_COUNTED_GROUPS) {
    rep.add(`${at}.widths`, `${at}.widths 需要 1 到 ${MAX_COUNTED_GROUPS} 个记录宽度`, 'list the record width of each group in order, e.g. [2, 2, 2] for three groups of (id, count) pairs', T);
  }
  widths.forEach((w, k) => {
    if (w < 1) rep.add(`${at}.widths[${k}]`, `${at}.widths[${k}] 必须大于 0`, 'a record has at least one token: use a width ≥ 1', T);
  });
  if (group < 0 || (widths.length > 0 && group >= widths.length)) {
    rep.add(`${at}.group`, `${at}.group 必须是 widths 中的一组`, `use a 0-based group in 0..${Math.max(widths.length - 1, 0)}`, T);
  }
  const width = widths[group] ?? 0;
  if (groups.count === true) {
    if (target.index !== undefined) rep.add('.target.index', '.target.countedGroups.count 为 true 时不能配置 index', 'the count token is the target: remove target.index, or set countedGroups.count to false', T);
    if (target.contextIndex !== undefined) rep.add('.target.contextIndex', '.target.countedGroups.count 为 true 时不能配置 contextIndex', 'the count token belongs to no record: remove target.contextIndex', T);
  } else if (target.index === undefined) {
    rep.add('.target.index', '.target.countedGroups 需要 index 或 count: true', 'set target.index (the token inside each record of the group), or countedGroups.count: true for the count token', T);
  } else if (target.index < 0 || (width > 0 && target.index >= width)) {
    rep.add('.target.index', '.target.index 必须位于该组的记录宽度内', `target.index ${target.index} is outside a ${width}-token record of group ${group}; use 0..${Math.max(width - 1, 0)}`, T);
  }
  const context = target.contextIndex;
  if (groups.count !== true && context !== undefined && (context < 0 || (width > 0 && context >= width))) {
    rep.add('.target.contextIndex', '.target.contextIndex 必须位于该组的记录宽度内', `use a contextIndex in 0..${Math.max(width - 1, 0)}`, T);
  }
  if ((target.offset ?? 0) < 0) rep.add('.target.offset', '.target.offset 不能为负数', 'use an offset ≥ 0 (tokens to skip once before the first group)', T);
  for (const key of NOT_WITH_COUNTED_GROUPS) {
    if (target[key] === undefined) continue;
    rep.add(`.target.${key}`, `.target.${key} 不能与 target.countedGroups 同时使用`, `countedGroups gives the record widths and groups: remove target.${key}`, T);
  }
  if (annotation.columns !== undefined) {
    rep.add('.annotation.columns', '.annotation.columns 不能与 target.countedGroups 同时使用', 'write one rule per column of the group (target.index), or remove annotation.columns', TA);
  }
  if ((annotation.type ?? '') === 'image') {
    rep.add('.annotation.type', ' 的 countedGroups 标注不支持 image 类型', 'an image rule reads its path from a fixed record: use recordTokens, or another annotation type', TA);
  }
}

/** Most `widthByFirst` entries one `target.variableRecords` may list. */
const MAX_WIDTH_BY_FIRST = 16;

/** The narrowest and widest record a `variableRecords` reading can cut (widths < 1 are reported, not used; 0 when none is left). */
function recordShapes(records: NonNullable<TargetInput['variableRecords']>): { narrowest: number; widest: number } {
  const widths = [records.width, ...Object.values(records.widthByFirst ?? {})].filter((w) => w >= 1);
  return widths.length === 0 ? { narrowest: 0, widest: 0 } : { narrowest: Math.min(...widths), widest: Math.max(...widths) };
}

/**
 * pvfdoc extension `target.variableRecords` on a token target: widths ≥ 1; `keyAt` and `countAt` inside every
 * record shape; `first` or `notFirst` (not both), non-empty; `tail: true` (needs `countAt`, no index)
 * or an `index` inside some record shape; `contextIndex` inside the records; `offset` ≥ 0; none of the
 * other repeated-record keys, no `countedGroups`, no `annotation.columns`, no image.
 */
function checkVariableRecordsTarget(rep: Reporter, target: TargetInput, annotation: AnnotationInput, blankSection: (() => void) | null): void {
  const records = target.variableRecords;
  if (records === undefined) return;
  blankSection?.();
  const at = '.target.variableRecords';
  const byFirst = Object.entries(records.widthByFirst ?? {});
  if (records.width < 1) rep.add(`${at}.width`, `${at}.width 必须大于 0`, 'a record has at least one token: use a width ≥ 1', T);
  if (records.widthByFirst !== undefined && (byFirst.length === 0 || byFirst.length > MAX_WIDTH_BY_FIRST)) {
    rep.add(`${at}.widthByFirst`, `${at}.widthByFirst 需要 1 到 ${MAX_WIDTH_BY_FIRST} 项`, 'map the first tokens of the wider or narrower records to their widths, e.g. {"[SKILL_LEVEL]": 4}, or remove widthByFirst', T);
  }
  for (const [value, width] of byFirst) {
    if (value.trim() === '') rep.add(`${at}.widthByFirst`, `${at}.widthByFirst 的键不能为空`, 'write the first token\'s value as the key, e.g. "[SKILL_LEVEL]"', T);
    if (width < 1) rep.add(`${at}.widthByFirst[${JSON.stringify(value)}]`, `${at}.widthByFirst[${JSON.stringify(value)}] 必须大于 0`, 'a record has at least one token: use a width ≥ 1', T);
  }
  const { narrowest, widest } = recordShapes(records);
  // The key decides the width, so it must lie inside the narrowest record (read before the width is known).
  if (records.keyAt !== undefined && (records.keyAt < 0 || (narrowest > 0 && records.keyAt >= narrowest))) {
    rep.add(`${at}.keyAt`, `${at}.keyAt 必须位于每种记录的宽度内`, `the key token is read before the width is known: use a keyAt in 0..${Math.max(narrowest - 1, 0)}`, T);
  }
  if (records.countAt !== undefined && (records.countAt < 0 || (narrowest > 0 && records.countAt >= narrowest))) {
    rep.add(`${at}.countAt`, `${at}.countAt 必须位于每种记录的宽度内`, `the count is a column of every record: use a countAt in 0..${Math.max(narrowest - 1, 0)}`, T);
  }
  if (records.first !== undefined && records.notFirst !== undefined) {
    rep.add(`${at}.notFirst`, `${at}.first 与 notFirst 不能同时使用`, 'select records by first (these first tokens) or by notFirst (all but these), not both', T);
  }
  for (const key of ['first', 'notFirst'] as const) {
    const list = records[key];
    if (list === undefined) continue;
    if (list.length === 0) rep.add(`${at}.${key}`, `${at}.${key} 至少需要一个值`, `list the first-token values, or remove ${key}`, T);
    list.forEach((v, k) => {
      if (v.trim() === '') rep.add(`${at}.${key}[${k}]`, `${at}.${key}[${k}] 不能为空`, 'write a first-token value, e.g. "[SKILL_LEVEL]"', T);
    });
  }
  if (records.tail === true) {
    if (records.countAt === undefined) rep.add(`${at}.tail`, `${at}.tail 需要配合 countAt 使用`, 'the tail is the N tokens a count column announces: set countAt, or remove tail', T);
    if (target.index !== undefined) rep.add('.target.index', '.target.variableRecords.tail 为 true 时不能配置 index', 'the tail tokens are the target: remove target.index, or set tail to false', T);
  } else if (target.index === undefined) {
    rep.add('.target.index', '.target.variableRecords 需要 index 或 tail: true', 'set target.index (the column inside each record), or variableRecords.tail: true for the tokens after the width', T);
  } else if (target.index < 0 || (widest > 0 && target.index >= widest)) {
    rep.add('.target.index', '.target.index 必须位于记录宽度内', `target.index ${target.index} is outside every record; use 0..${Math.max(widest - 1, 0)}`, T);
  }
  const context = target.contextIndex;
  if (context !== undefined && (context < 0 || (narrowest > 0 && context >= narrowest))) {
    rep.add('.target.contextIndex', '.target.contextIndex 必须位于每种记录的宽度内', `use a contextIndex in 0..${Math.max(narrowest - 1, 0)}`, T);
  }
  if ((target.offset ?? 0) < 0) rep.add('.target.offset', '.target.offset 不能为负数', 'use an offset ≥ 0 (tokens to skip once before the first record)', T);
  for (const key of [...NOT_WITH_COUNTED_GROUPS, 'countedGroups'] as const) {
    if (target[key] === undefined) continue;
    rep.add(`.target.${key}`, `.target.${key} 不能与 target.variableRecords 同时使用`, `variableRecords gives the record widths: remove target.${key}`, T);
  }
  if (annotation.columns !== undefined) {
    rep.add('.annotation.columns', '.annotation.columns 不能与 target.variableRecords 同时使用', 'write one rule per column (target.index), or remove annotation.columns', TA);
  }
  if ((annotation.type ?? '') === 'image') {
    rep.add('.annotation.type', ' 的 variableRecords 标注不支持 image 类型', 'an image rule reads its path from a fixed record: use recordTokens, or another annotation type', TA);
  }
}

/**
 * pvfdoc extensions `target.topLevel` (token targets: the tokens before the first section, so no
 * section, pattern or scope) and `target.sectionPattern` (section and token targets: a Go path.Match
 * pattern for the name, instead of `section`). One problem per bad key.
 */
function checkSectionChoice(rep: Reporter, target: TargetInput, kind: string): void {
  const { topLevel, sectionPattern } = target;
  if (topLevel !== undefined && kind !== 'token') {
    rep.add('.target.topLevel', '.target.topLevel 只允许用于 token 标注', 'the tokens before the first section are values: use target.kind "token", or remove target.topLevel', T);
  }
  if (sectionPattern !== undefined && kind === 'path') {
    rep.add('.target.sectionPattern', '.target.sectionPattern 只允许用于 section 或 token 标注', 'a path target has no section: remove target.sectionPattern', T);
    return;
  }
  if (topLevel === true && kind === 'token') {
    for (const key of ['section', 'sectionPattern'] as const) {
      if (target[key] === undefined) continue;
      rep.add(
        `.target.${key}`,
        '.target.topLevel 不能与 target.section 或 target.sectionPattern 同时使用',
        `target.topLevel addresses the tokens before the first section: remove target.${key}, or remove target.topLevel`,
        T,
      );
    }
    for (const key of ['parent', 'notInside', 'after'] as const) {
      if (target[key] === undefined) continue;
      rep.add(
        `.target.${key}`,
        '.target.topLevel 不能与 target.parent、target.notInside 或 target.after 同时使用',
        `the tokens before the first section sit in no section: remove target.${key}`,
        T,
      );
    }
    return;
  }
  if (sectionPattern === undefined) return;
  if (target.section !== undefined) {
    rep.add(
      '.target.sectionPattern',
      '.target.section 与 target.sectionPattern 只能配置一个',
      'name one section with target.section, or several by pattern with target.sectionPattern; remove one of them',
      T,
    );
    return;
  }
  if (sectionPattern.trim() === '') {
    rep.add('.target.sectionPattern', '.target.sectionPattern 不能为空', 'write the name pattern without brackets, e.g. "FRAME[0-9][0-9][0-9]" for [FRAME000]…[FRAME999]', T);
    return;
  }
  const error = sectionPatternError(sectionPattern);
  if (error !== null) {
    rep.add(
      '.target.sectionPattern',
      `.target.sectionPattern 无效: ${error}`,
      'fix the pattern: Go path.Match syntax (*, ?, [0-9], [^...]) for one section name, compared case-insensitively',
      T,
    );
    return;
  }
  const fits = ORDINARY_SECTION_NAMES.filter((name) => matchSectionPattern(sectionPattern, name));
  if (fits.length > 0) {
    rep.warn(
      '.target.sectionPattern',
      `.target.sectionPattern "${sectionPattern}" 也匹配 ${fits.map((n) => `[${n}]`).join('、')} 这类普通标签：搜索会把这条规则列进这些标签的结果，也不再提示“没有这个标签的定义”`,
      `the pattern also fits ordinary sections such as ${fits.map((n) => `[${n}]`).join(', ')}: search lists this rule for every section it fits and no longer says "no definition has section …" for them; narrow it (e.g. FRAME[0-9][0-9][0-9]), or name the sections one by one with target.section`,
    );
  }
}

/** Section names of every kind of file, none a pattern is meant for: a pattern fitting one of them is too wide. */
const ORDINARY_SECTION_NAMES = ['name', 'rarity', 'attack info', 'level info', 'x'];

/**
 * A token target with `annotation.columns` (pvfdoc extension): every token of every repeated record is
 * annotated, so it takes records (`recordTokens > 0` or `tokensPerLineIndex`) and neither `index` nor
 * `range`, and a text type. The other repeated-record checks are those of a token target with an index.
 */
function checkColumnsTarget(rep: Reporter, target: TargetInput, type: string, blankSection: (() => void) | null): void {
  const recordTokens = target.recordTokens ?? 0;
  blankSection?.();
  if (recordTokens <= 0 && target.tokensPerLineIndex === undefined) {
    rep.add(
      '.annotation.columns',
      '.annotation.columns 需要配合重复记录使用',
      'set target.recordTokens (the record width, > 0) and optionally target.tokensPerLineIndex, or remove annotation.columns',
      TA,
    );
  }
  if (target.index !== undefined || target.range !== undefined) {
    rep.add(
      target.index !== undefined ? '.target.index' : '.target.range',
      '.annotation.columns 不能与 target.index 或 target.range 同时使用',
      `annotation.columns annotates every token of each record: remove target.${target.index !== undefined ? 'index' : 'range'}, or remove annotation.columns`,
      TA,
    );
  }
  if (type !== 'text') {
    rep.add('.annotation.type', '.annotation.columns 只支持 text 类型', 'records with column titles take annotation.type "text"', TA);
  }
  if (target.imagePathToken !== undefined) {
    rep.add('.target.imagePathToken', '.target.imagePathToken 只允许用于 image 标注', 'remove target.imagePathToken', TA);
  }
  const negatives = (['offset', 'groupOffset', 'tokensPerLineIndex', 'recordTokens'] as const).filter((key) => (target[key] ?? 0) < 0);
  for (const key of negatives) rep.add(`.target.${key}`, `.target.${key} 不能为负数`, `use a ${key} ≥ 0`, T);
  const repeated = repeatedKey(target);
  if (repeated !== null && recordTokens <= 0) {
    rep.add(
      '.target.recordTokens',
      '.target.offset/tokensPerLineIndex 需要配置正数 recordTokens 作为回退值',
      `set target.recordTokens > 0: target.${repeated} works on repeated records`,
      T,
    );
  }
  const contextIndex = target.contextIndex;
  if (contextIndex !== undefined && recordTokens > 0 && (contextIndex < 0 || contextIndex >= recordTokens)) {
    rep.add('.target.contextIndex', '.target.contextIndex 必须位于 recordTokens 范围内', `use a contextIndex in 0..${recordTokens - 1}`, T);
  }
}

function checkTokenTarget(
  rep: Reporter,
  target: TargetInput,
  type: string,
  repeated: ReturnType<typeof repeatedKey>,
  blankSection: (() => void) | null,
): void {
  const index = target.index;
  const range = target.range;
  const offset = target.offset ?? 0;
  const groupOffset = target.groupOffset ?? 0;
  const tokensPerLineIndex = target.tokensPerLineIndex;
  const recordTokens = target.recordTokens ?? 0;
  const contextIndex = target.contextIndex;
  const imagePathToken = target.imagePathToken;
  const last = recordTokens - 1;

  if (type !== 'image' && imagePathToken !== undefined) {
    rep.add('.target.imagePathToken', '.target.imagePathToken 只允许用于 image 标注', 'remove target.imagePathToken, or set annotation.type to "image"', TA);
  }
  blankSection?.();
  if ((index === undefined) === (range === undefined)) {
    rep.add(
      index === undefined ? '.target.index' : '.target.range',
      ' 的 token 目标必须且只能配置 index 或 range',
      index === undefined ? 'set exactly one of target.index or target.range' : 'set exactly one of target.index or target.range (remove one)',
      T,
    );
  }
  if (index !== undefined && index < 0) rep.add('.target.index', '.target.index 不能为负数', 'use a 0-based token index ≥ 0', T);
  if (offset < 0) rep.add('.target.offset', '.target.offset 不能为负数', 'use an offset ≥ 0 (tokens to skip once)', T);
  if (groupOffset < 0) rep.add('.target.groupOffset', '.target.groupOffset 不能为负数', 'use a groupOffset ≥ 0 (tokens to skip in every group)', T);
  if (tokensPerLineIndex !== undefined && tokensPerLineIndex < 0) {
    rep.add('.target.tokensPerLineIndex', '.target.tokensPerLineIndex 不能为负数', 'use a 0-based token index ≥ 0', T);
  }
  if (recordTokens < 0) rep.add('.target.recordTokens', '.target.recordTokens 不能为负数', 'use a record width > 0, or leave recordTokens out', T);
  if (recordTokens === 0 && contextIndex !== undefined) {
    rep.add('.target.contextIndex', '.target.contextIndex 需要同时配置 recordTokens', 'set target.recordTokens (the record width), or remove target.contextIndex', T);
  }
  if (recordTokens > 0) {
    if (index === undefined) {
      rep.add('.target.recordTokens', '.target.recordTokens 需要配合单个 index 使用', 'set target.index (the token inside each record) instead of target.range, or remove target.recordTokens', T);
    } else if (index >= recordTokens) {
      rep.add('.target.index', '.target.index 必须小于 recordTokens', `target.index ${index} is outside a ${recordTokens}-token record; use 0..${last}`, T);
    }
    if (contextIndex !== undefined && (contextIndex < 0 || contextIndex >= recordTokens)) {
      rep.add('.target.contextIndex', '.target.contextIndex 必须位于 recordTokens 范围内', `use a contextIndex in 0..${last}`, T);
    }
  }
  if (repeated !== null) {
    if (recordTokens <= 0) {
      rep.add(
        '.target.recordTokens',
        '.target.offset/tokensPerLineIndex 需要配置正数 recordTokens 作为回退值',
        `set target.recordTokens > 0: target.${repeated} works on repeated records`,
        T,
      );
    }
    if (index === undefined || range !== undefined) {
      rep.add(
        range !== undefined ? '.target.range' : '.target.index',
        '.target.offset/tokensPerLineIndex 需要配合单个 index 使用',
        `target.${repeated} needs target.index and no target.range`,
        T,
      );
    }
  }
  if (range !== undefined) {
    const start = range.start ?? 0;
    const end = range.endExclusive ?? 0;
    if (start < 0 || end <= start) {
      rep.add('.target.range', '.target.range 必须满足 0 <= start < endExclusive', `got start ${start}, endExclusive ${end}; make 0 ≤ start < endExclusive`, T);
    }
    if (type !== 'text') rep.add('.annotation.type', ' 的 token 范围只支持 text 类型', 'a token range takes annotation.type "text"; use target.index for other types', TA);
  }
  if (type === 'image') {
    if (index === undefined || range !== undefined) {
      rep.add(
        range !== undefined ? '.target.range' : '.target.index',
        ' 的 image 标注必须使用单个路径 token',
        'set target.index to the image-index token (and no target.range)',
        TA,
      );
    }
    if (recordTokens <= 0) {
      rep.add('.target.recordTokens', ' 的 image 标注必须配置正数 target.recordTokens', 'set target.recordTokens to the record width, e.g. 2 for (path, index)', TA);
    }
    if (imagePathToken === undefined) {
      rep.add('.target.imagePathToken', ' 的 image 标注必须配置 target.imagePathToken', 'set target.imagePathToken to the in-record index of the IMG path token', TA);
    } else if (recordTokens > 0 && (imagePathToken < 0 || imagePathToken >= recordTokens)) {
      rep.add('.target.imagePathToken', '.target.imagePathToken 必须位于 recordTokens 范围内', `use an imagePathToken in 0..${last}`, TA);
    }
    if (index !== undefined && imagePathToken !== undefined && index === imagePathToken) {
      rep.add(
        '.target.imagePathToken',
        ' 的 imagePathToken 不能与图片索引 token 相同',
        'target.index is the image-index token and target.imagePathToken the path token; point them at different tokens',
        TA,
      );
    }
    if (contextIndex !== undefined) rep.add('.target.contextIndex', ' 的 image 标注不支持 contextIndex', 'remove target.contextIndex', TA);
  }
}

function checkAnnotation(rep: Reporter, target: TargetInput, annotation: AnnotationInput, context: Context): void {
  const type = annotation.type ?? '';
  const pathRoot = annotation.pathRoot ?? '';
  switch (type) {
    case 'text':
    case 'image':
      break;
    case 'path': {
      const root = pathRoot.trim().replaceAll('\\', '/');
      if (root !== '' && (root.startsWith('/') || root === '..' || root.startsWith('../') || root.includes('/../'))) {
        rep.add(
          '.annotation.pathRoot',
          '.annotation.pathRoot 必须是归档内的相对目录',
          `use a folder relative to the archive root without "..", e.g. "equipment/" (got ${JSON.stringify(pathRoot)})`,
          A,
        );
      }
      break;
    }
    case 'enum':
      if (Object.keys(annotation.values ?? {}).length === 0) {
        rep.add('.annotation.values', '.annotation.values 不能为空', 'map each token value to its label, e.g. {"0": "普通"}', A);
      }
      break;
    case 'reference':
      checkReference(rep, target, annotation.relation ?? '', context);
      break;
    default:
      rep.add(
        '.annotation.type',
        '.annotation.type 必须是 text、image、enum、reference 或 path',
        `set annotation.type to "text", "image", "enum", "reference" or "path"${type === '' ? '' : ` (got ${JSON.stringify(type)})`}`,
        A,
      );
  }
  checkSentinels(rep, annotation, type);
  if (pathRoot !== '' && type !== 'path') {
    rep.add('.annotation.pathRoot', '.annotation.pathRoot 只允许用于 path 标注', 'remove annotation.pathRoot, or set annotation.type to "path"', A);
  }
  if (annotation.inlineImage === true && type !== 'image') {
    rep.add('.annotation.inlineImage', '.annotation.inlineImage 只允许用于 image 标注', 'remove annotation.inlineImage, or set annotation.type to "image"', A);
  }
}

/** pvfdoc extension `annotation.sentinels`: enum and reference annotations only; keys non-blank. */
function checkSentinels(rep: Reporter, annotation: AnnotationInput, type: string): void {
  const sentinels = annotation.sentinels;
  if (sentinels === undefined) return;
  if (type !== 'enum' && type !== 'reference') {
    rep.add(
      '.annotation.sentinels',
      '.annotation.sentinels 只允许用于 enum 或 reference 标注',
      `sentinels give fixed meanings to values that are not looked up; remove annotation.sentinels, or set annotation.type to "enum" or "reference"${type === '' ? '' : ` (got ${JSON.stringify(type)})`}`,
      A,
    );
  }
  for (const key of Object.keys(sentinels)) {
    if (key.trim() !== '') continue;
    rep.add(
      `.annotation.sentinels[${JSON.stringify(key)}]`,
      '.annotation.sentinels 的键不能为空',
      'write the token value as the key, e.g. {"-1": "无"}',
      A,
    );
  }
}

function checkReference(rep: Reporter, target: TargetInput, name: string, context: Context): void {
  const merged = context.relations.get(name);
  if (merged === undefined) {
    rep.add(
      '.annotation.relation',
      ` 引用了不存在的 relation: ${name}`,
      name === ''
        ? 'set annotation.relation to a relation defined in lists.json'
        : `define relation "${name}" in lists.json of this or another layer, or fix annotation.relation`,
      A,
    );
    return;
  }
  const relation: RelationInput = merged.item.input;
  if (relation.kind !== 'contextual') return;
  // Records of their own shape: the width a context token must fall within is theirs.
  const shaped = recordWidthOfShapedTarget(target);
  if (shaped !== null) {
    const contextIndex = target.contextIndex ?? relation.contextToken ?? 0;
    if (target.contextIndex === undefined && (contextIndex < 0 || contextIndex >= shaped)) {
      rep.add('.target.contextIndex', ' 的 contextual relation 上下文 token 下标必须位于记录宽度内', `relation "${name}" reads the context from token ${contextIndex}, outside a ${shaped}-token record; set target.contextIndex`, TA);
    }
    return;
  }
  const recordTokens = target.recordTokens ?? 0;
  if (recordTokens === 0) {
    rep.add(
      '.target.recordTokens',
      ' 的 contextual relation 需要配置 target.recordTokens',
      `relation "${name}" is contextual: set target.recordTokens so the context token can be found in each record`,
      TA,
    );
  }
  const contextIndex = target.contextIndex ?? relation.contextToken ?? 0;
  if (recordTokens > 0 && (contextIndex < 0 || contextIndex >= recordTokens)) {
    rep.add(
      target.contextIndex !== undefined ? '.target.contextIndex' : '.target.recordTokens',
      ' 的 contextual relation 上下文 token 下标必须位于 target.recordTokens 范围内',
      target.contextIndex !== undefined
        ? `use a target.contextIndex in 0..${recordTokens - 1}`
        : `relation "${name}" reads the context from token ${contextIndex}, outside a ${recordTokens}-token record; set target.contextIndex or widen target.recordTokens`,
      TA,
    );
  }
}

/**
 * The record width a `countedGroups` (its group's) or `variableRecords` (its narrowest shape) target
 * gives every record; null for other targets.
 */
function recordWidthOfShapedTarget(target: TargetInput): number | null {
  if (target.variableRecords !== undefined) return recordShapes(target.variableRecords).narrowest;
  if (target.countedGroups !== undefined) return target.countedGroups.widths[target.countedGroups.group ?? 0] ?? 0;
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Rendering rules (pvfine's rendering Validate plus nestedSections)

function checkRendering(layer: LoadedLayer, problems: Problem[]): void {
  const firstById = new Map<string, string>();
  for (const item of layer.rendering) {
    const rule = item.input;
    const rep = new Reporter(layer, item, problems);
    const id = (rule.id ?? '').trim();
    if (id === '') {
      rep.add('.id', '.id 不能为空', 'give the rendering rule a non-blank id');
    } else {
      const first = firstById.get(id);
      if (first !== undefined) {
        rep.add('.id', `.id 重复: ${rule.id ?? ''}`, `rendering rule ids must be unique within a layer and ${first} already uses "${id}"; rename one`);
      } else {
        firstById.set(id, item.path);
      }
    }
    const extensions = rule.match?.extensions ?? [];
    const bad = extensions.findIndex((raw) => {
      const e = raw.trim().toLowerCase();
      return e === '' || !e.startsWith('.') || /[/\\]/.test(e);
    });
    if (bad >= 0) {
      rep.add(
        `.match.extensions[${bad}]`,
        '.match.extensions 必须是以点开头的文件后缀',
        `write each extension with its leading dot and no "/" or "\\", e.g. ".lst" (got ${JSON.stringify(extensions[bad])})`,
      );
    }
    const glob = rule.match?.glob ?? '';
    if (glob.trim() !== '') {
      const error = globError(glob);
      if (error !== null) {
        rep.add('.match.glob', `.match.glob 无效: ${error}`, 'fix the pattern: each segment uses Go path.Match syntax (*, ?, [a-z], [^...]) and "**" spans folders');
      }
    }
    const kind = rule.target?.kind ?? '';
    const format = rule.format ?? {};
    const nested = format.nestedSections ?? [];
    switch (kind) {
      case 'file':
        if ((rule.target?.section ?? '').trim() !== '') {
          rep.add('.target.section', '.target.section 仅允许用于 section 规则', 'remove target.section, or set target.kind to "section"');
        }
        if (format.tokensPerLineIndex !== undefined) {
          rep.add('.format.tokensPerLineIndex', '.format.tokensPerLineIndex 只允许用于 section 规则', 'remove format.tokensPerLineIndex, or make this a section rule');
        }
        if (nested.length > 0) {
          rep.add('.format.nestedSections', '.format.nestedSections 只允许用于 section 规则', 'remove format.nestedSections, or make this a section rule');
        }
        break;
      case 'section':
        if ((rule.target?.section ?? '').trim() === '') {
          rep.add('.target.section', '.target.section 不能为空', 'set target.section to the section name without brackets');
        }
        break;
      default:
        rep.add(
          '.target.kind',
          '.target.kind 必须是 file 或 section',
          `set target.kind to "file" or "section"${kind === '' ? '' : ` (got ${JSON.stringify(kind)})`}`,
        );
    }
    if ((format.offset ?? 0) < 0) rep.add('.format.offset', '.format.offset 不能为负数', 'use an offset ≥ 0');
    if ((format.tokensPerLine ?? 0) <= 0) {
      rep.add('.format.tokensPerLine', '.format.tokensPerLine 必须是正数', 'set format.tokensPerLine to the number of tokens per line (> 0)');
    }
    if (format.tokensPerLineIndex !== undefined && format.tokensPerLineIndex < 0) {
      rep.add('.format.tokensPerLineIndex', '.format.tokensPerLineIndex 不能为负数', 'use a 0-based token index ≥ 0');
    }
  }
}
