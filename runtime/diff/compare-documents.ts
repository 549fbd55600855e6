/**
 * What counts as a change of one document between two snapshots. Shared by the snapshot diff
 * (build/diff) and by the runtime (`countChangedDocuments`), so "changed" means the same in both.
 *
 * Compared: the resolved definition part by part (match, target, annotation, preview), description,
 * group, shared field, pvfVersions, trust and sources, layer and source category, status and its reason, enum values, the
 * per-version states (only over version contexts both snapshots have), and, when nothing else differs,
 * the definition as written (`raw`). Not compared: what is derived from those (title, content, summary,
 * section, targetKind, annotationType, relation, match, valueCount at the top level), the position of
 * the definition (`sourcePointer`, `layerIndex`: inserting a rule above it is not a change of it) and
 * `overriddenBy` (a documentId; the status reason names the overriding layer).
 */
import { canonicalJson } from '../bundle/canonical-json.js';
import { UNKNOWN_VERSION } from '../bundle/constants.js';
import type { Bundle } from '../bundle/load-bundle.js';
import type { BundleDocument, JsonValue, VersionStatus } from '../bundle/schema.js';
import type { DiffPartChange } from './diff-schema.js';

/** Enum values as the bundle stores them: ordered `[key, label]` pairs. */
export type EnumValues = readonly (readonly [string, string])[];

/** A version context whose state or reason differs. */
interface VersionChange {
  version: string;
  old: VersionStatus;
  new: VersionStatus;
}

interface DocumentComparison {
  /** Changed parts in a fixed order; `values` holds the two value counts when the enum differs. */
  parts: DiffPartChange[];
  /** Whether the enum values differ (keys, labels or order). */
  valuesChanged: boolean;
  /** Per-version states that differ, in the order of `versions`. */
  versionChanges: VersionChange[];
}

const TARGET_MEMBERS = [
  'kind',
  'section',
  'index',
  'range',
  'offset',
  'groupOffset',
  'standaloneValues',
  'recordTokens',
  'tokensPerLineIndex',
  'contextIndex',
  'imagePathToken',
  'parent',
  'notInside',
  'after',
  'topLevel',
  'sectionPattern',
  'when',
  'countedGroups',
  'variableRecords',
] as const;
const ANNOTATION_MEMBERS = ['type', 'title', 'content', 'relation', 'pathRoot', 'inlineImage', 'sentinels', 'columns'] as const;
const PREVIEW_MEMBERS = ['providers', 'role', 'group', 'order', 'format', 'label'] as const;

/** Whether two JSON values are equal (object member order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bs[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let na = 0;
  for (const k in ra) {
    const x = ra[k];
    if (x === undefined) continue;
    na++;
    if (!jsonEqual(x, rb[k])) return false;
  }
  let nb = 0;
  for (const k in rb) if (rb[k] !== undefined) nb++;
  return na === nb;
}

/** Whether two enum value lists are the same pairs in the same order. */
function valuesEqual(a: EnumValues, b: EnumValues): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x?.[0] !== y?.[0] || x?.[1] !== y?.[1]) return false;
  }
  return true;
}

/** A bundle's version contexts: "" (unknown version) and every supported version. */
export function versionContexts(bundle: Bundle): string[] {
  return [UNKNOWN_VERSION, ...bundle.manifest.pvfVersions];
}

/** The version contexts of `a` that `b` has too, in `a`'s order. */
export function commonVersions(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return a.filter((v) => inB.has(v));
}

/**
 * Compares two documents of the same identity (kind, origin, id). `versions` are the version contexts
 * to compare states in (normally those both snapshots support). Values are read only when both
 * documents may hold some.
 */
export function compareDocuments(
  a: BundleDocument,
  b: BundleDocument,
  valuesA: () => EnumValues,
  valuesB: () => EnumValues,
  versions: readonly string[],
): DocumentComparison {
  const parts: DiffPartChange[] = [];
  const push = (part: string, x: JsonValue, y: JsonValue) => {
    if (!jsonEqual(x, y)) parts.push({ part, old: x, new: y });
  };
  push('layer', a.layer, b.layer);
  push('source', a.source, b.source);
  if (a.status !== b.status || a.statusReason !== b.statusReason) {
    parts.push({ part: 'status', old: { status: a.status, reason: a.statusReason }, new: { status: b.status, reason: b.statusReason } });
  }
  const ra = a.resolved;
  const rb = b.resolved;
  push('match.extensions', ra.match.extensions, rb.match.extensions);
  push('match.glob', ra.match.glob, rb.match.glob);
  for (const m of TARGET_MEMBERS) push(`target.${m}`, ra.target[m], rb.target[m]);
  for (const m of ANNOTATION_MEMBERS) push(`annotation.${m}`, ra.annotation[m], rb.annotation[m]);
  if (ra.preview === null || rb.preview === null) push('preview', ra.preview, rb.preview);
  else for (const m of PREVIEW_MEMBERS) push(`preview.${m}`, ra.preview[m], rb.preview[m]);
  push('description', a.description, b.description);
  push('group', a.group, b.group);
  push('field', a.fieldId, b.fieldId);
  push('pvfVersions', a.pvfVersions, b.pvfVersions);
  push('trust', a.trust, b.trust);
  push('sources', a.sources, b.sources);

  let valuesChanged = false;
  if (a.valueCount !== b.valueCount) valuesChanged = true;
  else if (a.valueCount > 0) valuesChanged = !valuesEqual(valuesA(), valuesB());
  if (valuesChanged) parts.push({ part: 'values', old: a.valueCount, new: b.valueCount });

  const versionChanges: VersionChange[] = [];
  for (const v of versions) {
    const x = a.versions[v];
    const y = b.versions[v];
    if (!x || !y) continue;
    if (x.state !== y.state || x.effective !== y.effective || x.reason !== y.reason) versionChanges.push({ version: v, old: x, new: y });
  }

  // The definition as written matters only when it is the sole difference (any other change shows in
  // it too): e.g. `"content": ""` written out, which resolves the same.
  if (parts.length === 0 && !jsonEqual(a.raw, b.raw)) parts.push({ part: 'raw', old: a.raw, new: b.raw });
  return { parts, valuesChanged, versionChanges };
}

/** A stable text of a JSON value for grouping equal values (canonical JSON). */
export function jsonKey(value: unknown): string {
  return canonicalJson(value);
}
