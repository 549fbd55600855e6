/**
 * `pvf_annotation_search` over a bundle (protocol: 规则搜索; protocol-notes: Search).
 */
import type { Bundle } from '../bundle/load-bundle.js';
import type { BundleDocument, VersionStatus } from '../bundle/schema.js';
import { UNKNOWN_VERSION } from '../bundle/constants.js';
import { bindingHash, decodeCursor, encodeCursor } from '../cursor.js';
import { PvfdocError } from '../errors.js';
import { fileExtension, matchesDefinition, normalizeArchivePath } from '../match/match-glob.js';
import { DEFAULT_SEARCH_LIMIT, MAX_MATCHED_VALUES, MAX_SEARCH_RESPONSE_BYTES, type SearchInput, type SearchItem, type SearchOutput } from './search-schema.js';
import { splitTerms } from './search-index.js';

export const SEARCH_TOOL = 'pvf_annotation_search';

export interface SearchOptions {
  /** The client version of the workspace named by `workspaceId`, when `pvfVersion` is "current". */
  currentVersion?: string;
}

interface Candidate {
  doc: BundleDocument;
  position: number;
  score: number;
  exact: boolean;
  queryFields: string[];
}

export function normalizeSection(section: string): string {
  const trimmed = section.trim();
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return unbracketed.trim().toLowerCase();
}

export function searchDocuments(bundle: Bundle, input: SearchInput, options: SearchOptions = {}): SearchOutput {
  const requested = input.pvfVersion ?? 'current';
  const versionKey = resolveVersion(bundle, requested, input.workspaceId, options);
  const words = (input.query ?? '').trim().toLowerCase().split(/\s+/u).filter(Boolean);
  const filePath = input.filePath !== undefined && input.filePath.trim() !== '' ? normalizeArchivePath(input.filePath) : null;
  const pathKind = input.pathKind ?? 'file';
  if (input.pathKind === 'directory' && filePath === null) {
    throw new PvfdocError('INVALID_ARGUMENT', 'pathKind "directory" needs a filePath naming the folder', {
      hint: 'Give filePath (e.g. "equipment/character"), or drop pathKind.',
    });
  }
  const extensions = input.extensions?.length ? [...new Set(input.extensions.map((e) => e.trim().toLowerCase()))].sort() : null;
  if (extensions?.some((e) => !e.startsWith('.') || e.includes('/') || e.includes('\\'))) {
    throw new PvfdocError('INVALID_ARGUMENT', `extensions must look like ".equ": got ${JSON.stringify(input.extensions)}`, {
      hint: 'Give each extension with its leading dot and no path.',
    });
  }
  const section = input.section !== undefined && input.section.trim() !== '' ? normalizeSection(input.section) : null;
  const relation = input.relation !== undefined && input.relation !== '' ? input.relation : null;
  const kinds = input.kinds?.length ? [...new Set(input.kinds)].sort() : null;
  const targetKinds = input.targetKinds?.length ? [...new Set(input.targetKinds)].sort() : null;
  const annotationTypes = input.annotationTypes?.length ? [...new Set(input.annotationTypes)].sort() : null;
  const status = input.status ?? 'effective';
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;

  const binding = bindingHash({
    words,
    filePath,
    pathKind,
    extensions,
    section,
    relation,
    kinds,
    targetKinds,
    annotationTypes,
    status,
    version: versionKey,
    requested,
    workspaceId: requested === 'current' ? (input.workspaceId ?? null) : null,
  });
  const offset = input.cursor ? decodeCursor(input.cursor, { tool: SEARCH_TOOL, rulesRevision: bundle.rulesRevision, binding }) : 0;

  const candidates = words.length > 0 ? queryCandidates(bundle, words) : allCandidates(bundle);
  const items: { candidate: Candidate; item: SearchItem }[] = [];
  for (const candidate of candidates) {
    const { doc } = candidate;
    const reasons: string[] = [];
    if (words.length > 0) reasons.push('query');
    if (kinds) {
      if (!kinds.includes(doc.kind)) continue;
      reasons.push('kinds');
    }
    if (targetKinds) {
      if (!targetKinds.includes(doc.targetKind)) continue;
      reasons.push('targetKinds');
    }
    if (annotationTypes) {
      if (!annotationTypes.includes(doc.annotationType)) continue;
      reasons.push('annotationTypes');
    }
    if (relation !== null) {
      if (doc.relation !== relation) continue;
      reasons.push('relation');
    }
    if (section !== null) {
      if (doc.section === null || doc.section.trim().toLowerCase() !== section) continue;
      reasons.push('section');
    }
    let applicability: 'matched' | 'unknown' = versionKey === null ? 'unknown' : 'matched';
    if (filePath !== null) {
      if (pathKind === 'directory' && doc.targetKind !== 'path') continue;
      if (!matchesDefinition(doc.match, filePath, pathKind === 'directory')) continue;
      reasons.push('filePath');
    }
    if (extensions) {
      const own = doc.match.extensions.map((e) => e.toLowerCase());
      if (own.length > 0 && !own.some((e) => extensions.includes(e))) continue;
      if (filePath !== null && !extensions.includes(fileExtension(filePath))) continue;
      // A glob may still exclude files of these extensions: only filePath can prove it applies.
      if (filePath === null && doc.match.glob.trim() !== '') applicability = 'unknown';
      reasons.push('extensions');
    }
    const versionStatus = statusIn(doc, versionKey);
    if (status === 'effective' && !versionStatus.effective) continue;
    const item: SearchItem = {
      documentId: doc.documentId,
      kind: doc.kind,
      ruleId: doc.kind === 'rule' ? doc.id : null,
      fieldId: doc.fieldId,
      origin: doc.origin,
      title: doc.title,
      summary: doc.summary,
      summaryTruncated: doc.summaryTruncated,
      section: doc.section,
      targetKind: doc.targetKind,
      annotationType: doc.annotationType,
      pvfVersions: doc.pvfVersions,
      effective: versionStatus.effective,
      state: versionStatus.state,
      statusReason: versionStatus.reason,
      applicability,
      matchReasons: reasons,
      valueCount: doc.valueCount,
      relation: doc.relation,
      layer: doc.layer,
      source: doc.source,
    };
    if (words.length > 0 && doc.valueCount > 0 && candidate.queryFields.includes('values')) {
      item.matchedValues = matchedValues(bundle, doc, words);
    }
    items.push({ candidate, item });
  }

  items.sort((a, b) => compareCandidates(a.candidate, b.candidate));
  const page = fitPage(items.slice(offset, offset + limit).map((x) => x.item));
  const end = offset + page.length;
  const next = end < items.length ? encodeCursor({ tool: SEARCH_TOOL, rulesRevision: bundle.rulesRevision, binding, offset: end }) : null;
  return {
    schemaVersion: 1,
    rulesRevision: bundle.rulesRevision,
    context: {
      workspaceId: input.workspaceId ?? null,
      pvfVersion: versionKey ?? 'all',
      filePath,
    },
    items: page,
    totalMatches: items.length,
    nextCursor: next,
    truncated: page.length < Math.min(limit, Math.max(0, items.length - offset)),
  };
}

/** The longest prefix of the page that fits the response budget (at least one item, or an error). */
function fitPage(page: SearchItem[]): SearchItem[] {
  // Room for the envelope (revision, context, cursor) around the items.
  const budget = MAX_SEARCH_RESPONSE_BYTES - 2048;
  let used = 0;
  for (let i = 0; i < page.length; i++) {
    used += Buffer.byteLength(JSON.stringify(page[i])) + 1;
    if (used > budget) {
      if (i === 0) {
        throw new PvfdocError('RESPONSE_TOO_LARGE', `search item ${page[0]?.documentId ?? ''} alone exceeds the ${MAX_SEARCH_RESPONSE_BYTES}-byte response limit`, {
          hint: 'Use pvf_annotation_get for this document.',
          data: { limit: MAX_SEARCH_RESPONSE_BYTES },
        });
      }
      return page.slice(0, i);
    }
  }
  return page;
}

/** The version context key, or null for "all". */
function resolveVersion(bundle: Bundle, requested: string, workspaceId: string | undefined, options: SearchOptions): string | null {
  if (requested === 'all') return null;
  if (requested === 'current') {
    if (options.currentVersion === undefined) {
      throw new PvfdocError('NO_ARCHIVE', workspaceId
        ? `workspace "${workspaceId}" has no archive open, so pvfVersion "current" has no version`
        : 'pvfVersion "current" needs a workspaceId with an open archive', {
        hint: `Pass an explicit pvfVersion (${bundle.manifest.pvfVersions.join(', ')}) or "all".`,
        data: { supportedVersions: bundle.manifest.pvfVersions },
      });
    }
    const v = options.currentVersion;
    return bundle.manifest.pvfVersions.includes(v) ? v : UNKNOWN_VERSION;
  }
  if (!bundle.manifest.pvfVersions.includes(requested)) {
    throw new PvfdocError('INVALID_VERSION', `unknown pvfVersion "${requested}"`, {
      hint: `Use one of ${bundle.manifest.pvfVersions.map((v) => `"${v}"`).join(', ')}, "all" or "current".`,
      data: { supportedVersions: bundle.manifest.pvfVersions },
    });
  }
  return requested;
}

/**
 * Status in a version context. For "all" only override and disable count (protocol); a generated
 * field rule counts as effective there when it applies in at least one version context.
 */
export function statusIn(doc: BundleDocument, versionKey: string | null): VersionStatus {
  if (versionKey !== null) {
    return doc.versions[versionKey] ?? { state: 'notApplicable', effective: false, reason: 'no status recorded for this version' };
  }
  if (doc.status !== 'effective') return { state: doc.status, effective: false, reason: doc.statusReason };
  if (doc.origin === 'generated') {
    const statuses = Object.values(doc.versions);
    if (statuses.length > 0 && !statuses.some((s) => s.effective)) {
      const suppressed = statuses.find((s) => s.state === 'suppressed');
      return suppressed ?? (statuses[0] as VersionStatus);
    }
  }
  return { state: 'effective', effective: true, reason: null };
}

function allCandidates(bundle: Bundle): Candidate[] {
  return bundle.documents.map((doc, position) => ({ doc, position, score: 0, exact: false, queryFields: [] }));
}

/** Index lookup for candidates, then an exact substring check of every word against the text. */
function queryCandidates(bundle: Bundle, words: string[]): Candidate[] {
  const parts = [...new Set(words.flatMap((w) => splitTerms(w)))];
  let pool: { position: number; score: number }[];
  if (parts.length > 0) {
    pool = bundle.searchIndex.search(parts.join(' ')).map((r) => ({ position: r.id as number, score: r.score }));
  } else {
    pool = bundle.documents.map((_, position) => ({ position, score: 0 }));
  }
  const out: Candidate[] = [];
  for (const { position, score } of pool) {
    const doc = bundle.documents[position];
    if (!doc) continue;
    const hit = wordHits(bundle, doc, words);
    if (!hit) continue;
    const names = [doc.id.toLowerCase(), (doc.section ?? '').toLowerCase(), doc.title.trim().toLowerCase()];
    const exact = words.some((w) => {
      const bare = normalizeSection(w);
      return names.includes(w) || names.includes(bare);
    });
    out.push({ doc, position, score, exact, queryFields: hit });
  }
  return out;
}

/** The fields hit when every word is a substring of some field, else null. */
function wordHits(bundle: Bundle, doc: BundleDocument, words: string[]): string[] | null {
  const fields: [string, string][] = [
    ['id', doc.id],
    ['description', doc.description],
    ['title', doc.title],
    ['content', doc.content],
    ['section', doc.section ?? ''],
    ['fieldId', doc.fieldId ?? ''],
    ['relation', doc.relation ?? ''],
  ];
  const hits = new Set<string>();
  for (const word of words) {
    const bare = normalizeSection(word);
    let found = false;
    for (const [name, text] of fields) {
      const lower = text.toLowerCase();
      if (lower.includes(word) || (name === 'section' && bare !== '' && lower.includes(bare))) {
        hits.add(name);
        found = true;
      }
    }
    if (doc.valueCount > 0 && bundle.valuesOf(doc.documentId).some(([k, v]) => k.toLowerCase().includes(word) || v.toLowerCase().includes(word))) {
      hits.add('values');
      found = true;
    }
    if (!found) return null;
  }
  return [...hits];
}

function matchedValues(bundle: Bundle, doc: BundleDocument, words: string[]): { key: string; label: string }[] {
  const out: { key: string; label: string }[] = [];
  for (const [key, label] of bundle.valuesOf(doc.documentId)) {
    const k = key.toLowerCase();
    const l = label.toLowerCase();
    if (words.some((w) => k.includes(w) || l.includes(w))) out.push({ key, label });
    if (out.length >= MAX_MATCHED_VALUES) break;
  }
  return out;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  if (a.score !== b.score) return b.score - a.score;
  if (a.doc.kind !== b.doc.kind) return a.doc.kind === 'rule' ? -1 : 1;
  if (a.doc.id !== b.doc.id) return a.doc.id < b.doc.id ? -1 : 1;
  if (a.doc.layerIndex !== b.doc.layerIndex) return a.doc.layerIndex - b.doc.layerIndex;
  return a.position - b.position;
}
