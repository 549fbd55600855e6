/**
 * Reference resolution against a workspace (rule-format §4.3–§4.5): an id → the file a `.lst` row
 * names, and that file's display name.
 *
 * - Union relations try their flattened members in order (`resolvedMembers`), passing the context on;
 *   the first `resolved` answer wins.
 * - Contextual relations pick the `contextPaths` entry whose key equals the context after trim and
 *   lower-casing, else (pvfdoc) the key equal to it with brackets added or removed (`gunner` finds
 *   `[gunner]`, `[gunner]` finds `gunner`): no context → `context_required`; a context without an
 *   entry → `missing`.
 * - The list file is the first existing of its layout candidates (`listPaths` for list relations, the
 *   same candidates of the chosen context path for contextual ones); none → `missing`.
 * - Per list an `id → row` map is built once: all tokens of the list, ignoring sections, records of
 *   `effectiveRecordTokens` from token 0; the id token's value (trimmed) is the key; rows without an id,
 *   without a path or whose file does not exist (§4.4) are skipped; the first row of a duplicate id wins.
 * - The name is the first direct token of the first top-level `nameSection` section of the target
 *   (plain section structure), `{N=`…`}` unwrapped, `<n::key>` placeholders resolved; `character.lst`
 *   lists prefer `[growtype name]`; `itemshop.lst` rows without a name fall back to the name of their
 *   `[npc]` id through the relation of `npc.lst`.
 * - A relation the bundle does not know (or that is not effective) → `unsupported`.
 *
 * All caches live in the object made by createReferenceIndex, i.e. per (bundle, view). A file that
 * cannot be read (too large, not a script, I/O error) counts as having no name or no rows; a changed
 * workspace (STALE_WORKSPACE) always propagates.
 */
import type { Bundle } from '../bundle/load-bundle.js';
import type { BundleRelation } from '../bundle/schema.js';
import type { ReferenceQuery, ReferenceResolution, ResolvePath, ResolveReference } from './reference-query.js';
import { foldSectionName, parseScriptView, tokenValue } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';
import { basenameOf, cleanPath, dirnameOf, foldPath } from '../script/archive-path.js';
import { createStringTables, safeReadText, safeResolve, type StringTables } from './string-table.js';
import type { WorkspaceView } from '../workspace/workspace.js';

interface ListBinding {
  relation: BundleRelation;
  /** The list file as stored in the workspace. */
  listPath: string;
  /** For contextual relations, the context key of the (first) entry that names this list. */
  context: string | null;
}

export interface ReferenceIndex {
  resolve: ResolveReference;
  /**
   * The relations whose list is this file (§2.5): a list relation's `listPaths`, or any layout
   * candidate of a contextual relation's context paths. One binding per (relation, list path), sorted by
   * relation name, list path, context.
   */
  listBindings(filePath: string): ListBinding[];
  /** The file a list row's relative path names (§4.4), as stored, or null. */
  resolveRowPath(listPath: string, rowPath: string): string | null;
  /** Display name of a target file of `relation`, read from a list at `listPath` (null when none). */
  targetName(relation: BundleRelation, listPath: string, targetPath: string): string | null;
  readonly stringTables: StringTables;
}

interface ReferenceIndexOptions {
  /** Shared string tables (else made from the view). */
  stringTables?: StringTables;
}

/** A reference lookup for annotate-script, reading through one view. */
export function createReferenceResolver(bundle: Bundle, view: WorkspaceView, options: ReferenceIndexOptions = {}): ResolveReference {
  return createReferenceIndex(bundle, view, options).resolve;
}

/** Case-insensitive file lookup for `path` annotations; null for missing files and refused paths. */
export function createPathResolver(view: WorkspaceView): ResolvePath {
  return (archivePath) => safeResolve(view, archivePath);
}

/**
 * Where a configured `.lst` may live (§4.3 step 3): as given, `list/<basename>`, and for `list/x.lst`
 * also `x/x.lst`. Same candidates as the build's `listPaths`.
 */
export function listPathCandidates(listPath: string): string[] {
  const clean = listPath.replace(/\\/g, '/').replace(/^\/+/, '').trim();
  if (!clean) return [];
  const base = clean.slice(clean.lastIndexOf('/') + 1);
  const out = [clean];
  const inList = `list/${base}`;
  if (!out.includes(inList)) out.push(inList);
  if (clean.toLowerCase().startsWith('list/') && !clean.slice(5).includes('/')) {
    const stem = base.replace(/\.lst$/i, '');
    const folder = `${stem}/${base}`;
    if (!out.includes(folder)) out.push(folder);
  }
  return out;
}

interface ListTable {
  /** id → target file (stored path). */
  rows: Map<string, string>;
}

const NOT_FOUND: ReferenceResolution = { status: 'missing', name: null, path: null };
const UNSUPPORTED: ReferenceResolution = { status: 'unsupported', name: null, path: null };
const CONTEXT_REQUIRED: ReferenceResolution = { status: 'context_required', name: null, path: null };

export function createReferenceIndex(bundle: Bundle, view: WorkspaceView, options: ReferenceIndexOptions = {}): ReferenceIndex {
  const stringTables = options.stringTables ?? createStringTables(view);
  const effective = new Map<string, BundleRelation>();
  for (const relation of bundle.relations) {
    if (relation.status === 'effective' && !effective.has(relation.name)) effective.set(relation.name, relation);
  }
  const listFileCache = new Map<string, string | null>();
  const tableCache = new Map<string, ListTable>();
  const nameCache = new Map<string, string | null>();
  const rowPathCache = new Map<string, string | null>();

  /** The first existing layout candidate of a list, as stored. */
  const findList = (candidates: readonly string[]): string | null => {
    const key = candidates.join('\u0000');
    if (listFileCache.has(key)) return listFileCache.get(key) ?? null;
    let found: string | null = null;
    for (const candidate of candidates) {
      found = safeResolve(view, candidate);
      if (found !== null) break;
    }
    listFileCache.set(key, found);
    return found;
  };

  const resolveRowPath = (listPath: string, rowPath: string): string | null => {
    const key = `${listPath}\u0000${rowPath}`;
    const cached = rowPathCache.get(key);
    if (cached !== undefined) return cached;
    const found = rowTarget(listPath, rowPath);
    rowPathCache.set(key, found);
    return found;
  };

  const rowTarget = (listPath: string, rowPath: string): string | null => {
    const rel = trimSpace(rowPath).replaceAll('\\', '/');
    if (rel === '' || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return null;
    const candidates: string[] = [];
    const dir = dirnameOf(listPath);
    const beside = cleanPath(dir === '' ? rel : `${dir}/${rel}`);
    if (!escapes(beside)) candidates.push(beside, ...overrideVariant(beside));
    if (!rel.split('/').includes('..')) {
      const fromRoot = cleanPath(rel);
      if (!escapes(fromRoot)) candidates.push(fromRoot, ...overrideVariant(fromRoot));
    }
    for (const candidate of candidates) {
      const found = safeResolve(view, candidate);
      if (found !== null) return found;
    }
    return null;
  };

  const listTable = (relation: BundleRelation, listPath: string): ListTable => {
    const width = Math.max(1, relation.effectiveRecordTokens);
    const key = `${width}:${relation.idToken}:${relation.pathToken}:${foldPath(listPath)}`;
    const cached = tableCache.get(key);
    if (cached) return cached;
    const rows = new Map<string, string>();
    const text = safeReadText(view, listPath);
    if (text !== null) {
      const list = parseScriptView(text);
      for (let offset = 0; offset < list.tokenCount; offset += width) {
        const idAt = offset + relation.idToken;
        const pathAt = offset + relation.pathToken;
        if (idAt >= list.tokenCount || pathAt >= list.tokenCount) continue;
        const idValue = tokenValue(list, idAt);
        const pathValue = tokenValue(list, pathAt);
        const id = trimSpace(idValue);
        if (id === '' || rows.has(id)) continue;
        const target = resolveRowPath(listPath, pathValue);
        if (target !== null) rows.set(id, target);
      }
    }
    const table = { rows };
    tableCache.set(key, table);
    return table;
  };

  const readName = (relation: BundleRelation, listPath: string, targetPath: string, depth: number): string | null => {
    const listBase = basenameOf(listPath).toLowerCase();
    const key = `${relation.nameSection ?? ''}\u0000${listBase}\u0000${foldPath(targetPath)}`;
    if (nameCache.has(key)) return nameCache.get(key) ?? null;
    const text = safeReadText(view, targetPath);
    let name: string | null = null;
    if (text !== null) {
      const script = parseScriptView(text);
      const firstToken = (section: string): string | null => {
        const wanted = foldSectionName(trimSpace(section));
        const { sections, tokens } = script;
        let found = 0;
        for (let id = 1; id <= script.sectionCount && found === 0; id++) if (sections.parent[id] === 0 && foldSectionName(trimSpace(sections.name[id] as string)) === wanted) found = id;
        if (found === 0) return null;
        for (let i = 0; i < script.tokenCount; i++) if (tokens.section[i] === found && tokens.index[i] === 0) return displayText(tokenValue(script, i), stringTables);
        return null;
      };
      if (listBase === 'character.lst') name = nonEmpty(firstToken('growtype name'));
      if (name === null && relation.nameSection) name = nonEmpty(firstToken(relation.nameSection));
      if (name === null && listBase === 'itemshop.lst' && depth === 0) {
        const npcId = firstToken('npc');
        const npcRelation = [...effective.values()].find((r) => r.kind === 'list' && r.listPaths.some((p) => basenameOf(p).toLowerCase() === 'npc.lst'));
        if (npcId !== null && npcRelation) name = nonEmpty(resolveIn(npcRelation, npcId, null, depth + 1).name);
      }
    }
    nameCache.set(key, name);
    return name;
  };

  const resolveIn = (relation: BundleRelation, id: string, context: string | null, depth: number): ReferenceResolution => {
    if (relation.kind === 'union') {
      if (depth > 16) return UNSUPPORTED;
      let contextRequired = false;
      let anyMember = false;
      for (const memberName of relation.resolvedMembers) {
        const member = effective.get(memberName);
        if (!member || member.kind === 'union') continue;
        anyMember = true;
        const found = resolveIn(member, id, context, depth + 1);
        if (found.status === 'resolved') return found;
        if (found.status === 'context_required') contextRequired = true;
      }
      if (!anyMember) return UNSUPPORTED;
      return contextRequired ? CONTEXT_REQUIRED : NOT_FOUND;
    }
    let candidates: readonly string[];
    if (relation.kind === 'contextual') {
      const wanted = normalizeContext(context);
      if (wanted === '') return CONTEXT_REQUIRED;
      const entry = contextEntry(relation.contextPaths ?? [], wanted);
      if (!entry) return NOT_FOUND;
      candidates = listPathCandidates(entry[1]);
    } else {
      candidates = relation.listPaths.length > 0 ? relation.listPaths : listPathCandidates(relation.listPath ?? '');
    }
    const listPath = findList(candidates);
    if (listPath === null) return NOT_FOUND;
    const target = listTable(relation, listPath).rows.get(trimSpace(id));
    if (target === undefined) return NOT_FOUND;
    return { status: 'resolved', name: readName(relation, listPath, target, depth), path: target };
  };

  return {
    stringTables,
    resolve(query: ReferenceQuery): ReferenceResolution {
      const relation = effective.get(query.relation);
      if (!relation) return UNSUPPORTED;
      return resolveIn(relation, query.id, query.context, 0);
    },
    listBindings(filePath) {
      const folded = foldPath(filePath);
      const bindings: ListBinding[] = [];
      for (const relation of effective.values()) {
        if (relation.kind === 'list') {
          const candidates = relation.listPaths.length > 0 ? relation.listPaths : listPathCandidates(relation.listPath ?? '');
          if (candidates.some((c) => foldPath(c) === folded)) bindings.push({ relation, listPath: filePath, context: null });
        } else if (relation.kind === 'contextual') {
          for (const [context, path] of relation.contextPaths ?? []) {
            if (listPathCandidates(path).some((c) => foldPath(c) === folded)) bindings.push({ relation, listPath: filePath, context });
          }
        }
      }
      bindings.sort((a, b) => compare(a.relation.name, b.relation.name) || compare(a.listPath, b.listPath) || compare(a.context ?? '', b.context ?? ''));
      return bindings.filter((b, i) => i === 0 || bindings[i - 1]?.relation.name !== b.relation.name);
    },
    resolveRowPath,
    targetName(relation, listPath, targetPath) {
      return readName(relation, listPath, targetPath, 0);
    },
  };
}

// --- Helpers ---

function normalizeContext(context: string | null): string {
  return trimSpace(context ?? '').toLowerCase();
}

/**
 * The context path entry for a normalised context: the key equal to it, else (pvfdoc) the key equal
 * to it with brackets added or removed. `.equ` files write a job as a bare word (`gunner`) or as a
 * tag (`[gunner]`), and the 技能 relation keys its lists by `[gunner]`.
 */
function contextEntry(entries: readonly (readonly [string, string])[], wanted: string): readonly [string, string] | undefined {
  const exact = entries.find(([key]) => normalizeContext(key) === wanted);
  if (exact) return exact;
  const bracketed = /^\[(.*)\]$/.exec(wanted);
  const other = bracketed ? trimSpace(bracketed[1] ?? '').toLowerCase() : `[${wanted}]`;
  if (other === '') return undefined;
  return entries.find(([key]) => normalizeContext(key) === other);
}

function escapes(path: string): boolean {
  return path === '.' || path === '..' || path.startsWith('../') || path.startsWith('/');
}

/** The `(r)` client-override name of a file, unless it already has it (§4.4 b/d). */
function overrideVariant(path: string): string[] {
  const base = basenameOf(path);
  if (base.toLowerCase().startsWith('(r)')) return [];
  const dir = dirnameOf(path);
  return [dir === '' ? `(r)${base}` : `${dir}/(r)${base}`];
}

/** `{N=`…`}` unwrapped (one backtick string inside unquoted), placeholders resolved, trimmed. */
function displayText(value: string, strings: StringTables): string {
  let text = trimSpace(value);
  const block = /^\{\d+=([^]*)\}$/.exec(text);
  if (block) {
    text = trimSpace(block[1] ?? '');
    const quoted = /^`((?:[^`]|``)*)`$/.exec(text);
    if (quoted) text = (quoted[1] ?? '').replaceAll('``', '`');
  }
  return trimSpace(strings.resolveText(text));
}

function nonEmpty(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
