/**
 * The changes page's data: written by `pvfdoc site` (which compares the snapshot with the previous one
 * through the diff library, build/diff) into a JSON file the pages read. The site reads only the parts
 * of the diff it shows, typed here structurally, so it does not import build/.
 */
export type ChangesData =
  | { status: 'none'; reason: string }
  | { status: 'unavailable'; reason: string; previous: SnapshotRef | null }
  | { status: 'diff'; previous: SnapshotRef; diff: DiffView; text: string };

export interface SnapshotRef {
  rulesRevision: string;
  /** Folder name (not a path: the site holds no absolute paths). */
  name: string;
}

export interface DiffDocRef {
  documentId: string;
  kind: string;
  id: string;
  origin: string;
  layer: string;
  title: string;
  status: string;
}

export interface DiffPart {
  part: string;
  old: unknown;
  new: unknown;
}

export interface DiffView {
  hasChanges: boolean;
  old: { rulesRevision: string; documents: number; pvfVersions: string[] };
  new: { rulesRevision: string; documents: number; pvfVersions: string[] };
  summary: {
    documents: { added: number; removed: number; moved: number; changed: number };
    enumValues: { enums: number; added: number; removed: number; relabelled: number; reordered: number };
    effective: { documents: number };
    relations: { added: number; removed: number; moved: number; changed: number };
    rendering: { added: number; removed: number; moved: number; changed: number };
    layers: { added: number; removed: number; changed: number };
  };
  fileTypes: {
    fileType: string;
    documents: { change: string; old: DiffDocRef | null; new: DiffDocRef | null; parts: DiffPart[] }[];
    enumValues: {
      documents: DiffDocRef[];
      oldCount: number;
      newCount: number;
      added: { count: number; items: [string, string][] };
      removed: { count: number; items: [string, string][] };
      relabelled: { count: number; items: { key: string; old: string; new: string }[] };
    }[];
    effective: { document: DiffDocRef; transitions: { versions: string[]; old: { state: string }; new: { state: string } }[] }[];
  }[];
  relations: { change: string; old: { name: string } | null; new: { name: string } | null; parts: DiffPart[] }[];
  rendering: { change: string; old: { id: string } | null; new: { id: string } | null; parts: DiffPart[] }[];
}

export const NO_CHANGES_DATA: ChangesData = { status: 'none', reason: '构建时没有提供上一个快照。' };
