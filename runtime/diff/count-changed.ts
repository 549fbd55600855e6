/**
 * How many of the documents a client holds changed between the snapshot it worked with and the active
 * one (issue: offline snapshot diffs, item 4). Used to make STALE_RULES more useful: "3 of your 12
 * documents changed" tells an agent whether re-fetching is worth it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../bundle/constants.js';
import { loadBundle, type Bundle } from '../bundle/load-bundle.js';
import { commonVersions, compareDocuments, versionContexts } from './compare-documents.js';

interface ChangedDocumentsCount {
  /** Distinct documentIds asked about. */
  total: number;
  /** In both snapshots (same documentId) and unchanged. */
  unchanged: number;
  /** In both snapshots, with a difference a client can observe (see compare-documents.ts). */
  changed: number;
  /** In the old snapshot only: the definition was removed, or moved to another layer (new documentId). */
  removed: number;
  /** Not in the old snapshot at all (the client did not get it from that snapshot). */
  unknown: number;
  /** The changed and removed documentIds, in the order asked. */
  changedDocumentIds: string[];
}

/**
 * Counts, among `documentIds` (documents of `oldBundle` a client holds), those that changed in
 * `newBundle`. A documentId is the same document in both when both bundles have it (documentIds
 * derive from layer, kind, origin and id, so an unchanged definition keeps its id).
 */
export function countChangedDocuments(oldBundle: Bundle, newBundle: Bundle, documentIds: Iterable<string>): ChangedDocumentsCount {
  const versions = commonVersions(versionContexts(oldBundle), versionContexts(newBundle));
  const result: ChangedDocumentsCount = { total: 0, unchanged: 0, changed: 0, removed: 0, unknown: 0, changedDocumentIds: [] };
  const seen = new Set<string>();
  for (const id of documentIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    result.total++;
    const before = oldBundle.documentsById.get(id);
    if (!before) {
      result.unknown++;
      continue;
    }
    const after = newBundle.documentsById.get(id);
    if (!after) {
      result.removed++;
      result.changedDocumentIds.push(id);
      continue;
    }
    const comparison = compareDocuments(before, after, () => oldBundle.valuesOf(id), () => newBundle.valuesOf(id), versions);
    if (comparison.parts.length > 0 || comparison.versionChanges.length > 0) {
      result.changed++;
      result.changedDocumentIds.push(id);
    } else {
      result.unchanged++;
    }
  }
  return result;
}

/**
 * `countChangedDocuments` against an older revision that is still on disk in `snapshotsDir`. Returns
 * null when that revision is not there or cannot be loaded (then STALE_RULES just says it is stale).
 * `oldRevision` comes from a client, so only a plain revision is looked up (no path).
 */
export async function countChangedSince(
  snapshotsDir: string,
  oldRevision: string,
  active: Bundle,
  documentIds: Iterable<string>,
): Promise<ChangedDocumentsCount | null> {
  if (!/^[0-9a-f]{8,64}$/.test(oldRevision)) return null;
  const dir = path.join(snapshotsDir, oldRevision);
  if (!existsSync(path.join(dir, MANIFEST_FILE))) return null;
  let old: Bundle;
  try {
    old = await loadBundle(dir);
  } catch {
    return null;
  }
  if (old.rulesRevision !== oldRevision) return null;
  return countChangedDocuments(old, active, documentIds);
}
