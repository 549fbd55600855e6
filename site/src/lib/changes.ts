/**
 * The changes page's data: written by `pvfdoc site` (which compares the snapshot with the previous one
 * through the diff library, build/diff) into a JSON file the pages read. The diff is typed by its
 * schema in runtime/diff, which the site may import (build/ it may not).
 */
import type { DiffPartChange, DocumentRef, SnapshotDiff } from '../../../runtime/diff/diff-schema.js';

export type ChangesData =
  | { status: 'none'; reason: string }
  | { status: 'unavailable'; reason: string; previous: SnapshotRef | null }
  | { status: 'diff'; previous: SnapshotRef; diff: SnapshotDiff; text: string };

export interface SnapshotRef {
  rulesRevision: string;
  /** Folder name (not a path: the site holds no absolute paths). */
  name: string;
}

/** The names the changes page uses for the diff's document references and changed parts. */
export type DiffDocRef = DocumentRef;
export type DiffPart = DiffPartChange;

export const NO_CHANGES_DATA: ChangesData = { status: 'none', reason: '构建时没有提供上一个快照。' };
