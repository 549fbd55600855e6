/**
 * Every anchor of one file's rules, in columns (one Int32 per field): what explain keeps of a file
 * between pages. An anchor becomes an object only when its annotation is returned.
 */
import { IntColumn } from '../script/int-column.js';
import type { ScriptView } from '../script/parse-script-view.js';
import { anchorRecord, type Anchor, type AnchorSink } from './compute-anchors.js';

export interface AnchorColumns {
  count: number;
  /** Index of the anchor's rule in the explanation's rule list. */
  rule: Int32Array;
  kind: Int32Array;
  section: Int32Array;
  token: Int32Array;
  tokenIndex: Int32Array;
  lastTokenIndex: Int32Array;
  start: Int32Array;
  end: Int32Array;
  record: Int32Array;
  column: Int32Array;
  contextToken: Int32Array;
  imageToken: Int32Array;
}

/** Bytes an anchor takes in the columns. */
export const ANCHOR_BYTES = 12 * 4;

/** Collects anchors rule by rule; `onAnchor` runs after each one (explain's limit). */
export class AnchorTable implements AnchorSink {
  private readonly columns = Array.from({ length: 12 }, () => new IntColumn(4096));
  /** The rule of the anchors pushed next. */
  rule = 0;
  count = 0;

  constructor(private readonly onAnchor: (count: number) => void) {}

  push(kind: number, section: number, token: number, tokenIndex: number, lastTokenIndex: number, start: number, end: number, record: number, column: number, contextToken: number, imageToken: number): void {
    const c = this.columns;
    (c[0] as IntColumn).push(this.rule);
    (c[1] as IntColumn).push(kind);
    (c[2] as IntColumn).push(section);
    (c[3] as IntColumn).push(token);
    (c[4] as IntColumn).push(tokenIndex);
    (c[5] as IntColumn).push(lastTokenIndex);
    (c[6] as IntColumn).push(start);
    (c[7] as IntColumn).push(end);
    (c[8] as IntColumn).push(record);
    (c[9] as IntColumn).push(column);
    (c[10] as IntColumn).push(contextToken);
    (c[11] as IntColumn).push(imageToken);
    this.onAnchor(++this.count);
  }

  finish(): AnchorColumns {
    const [rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken] = this.columns.map((c) => c.finish()) as Int32Array[];
    return { count: this.count, rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken } as AnchorColumns;
  }
}

/** Anchor `id` as a record. */
export function anchorAt(view: ScriptView, a: AnchorColumns, id: number): Anchor {
  return anchorRecord(
    view,
    a.kind[id] as number,
    a.section[id] as number,
    a.token[id] as number,
    a.tokenIndex[id] as number,
    a.lastTokenIndex[id] as number,
    a.start[id] as number,
    a.end[id] as number,
    a.record[id] as number,
    a.column[id] as number,
    a.contextToken[id] as number,
    a.imageToken[id] as number,
  );
}
