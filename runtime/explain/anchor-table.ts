/**
 * Every anchor of one file's rules, in columns (one Int32 per field): what explain keeps of a file
 * between pages. An anchor becomes an object only when its annotation is returned.
 */
import { trimColumn } from '../script/int-column.js';
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

/** Collects anchors rule by rule, past `limit` anchors `tooMany()` is thrown (explain's memory bound). */
export class AnchorTable implements AnchorSink {
  private capacity: number;
  private columns: Int32Array[];
  /** The rule of the anchors pushed next. */
  rule = 0;
  count = 0;

  /** `expected`: how many anchors there will probably be (the columns start that large). */
  constructor(
    private readonly limit: number,
    private readonly tooMany: () => Error,
    expected = 4096,
  ) {
    this.capacity = Math.max(1024, Math.min(expected, limit));
    this.columns = Array.from({ length: 12 }, () => new Int32Array(this.capacity));
  }

  push(kind: number, section: number, token: number, tokenIndex: number, lastTokenIndex: number, start: number, end: number, record: number, column: number, contextToken: number, imageToken: number): void {
    const n = this.count;
    if (n === this.capacity) this.grow();
    if (n >= this.limit) throw this.tooMany();
    const c = this.columns as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
    c[0][n] = this.rule;
    c[1][n] = kind;
    c[2][n] = section;
    c[3][n] = token;
    c[4][n] = tokenIndex;
    c[5][n] = lastTokenIndex;
    c[6][n] = start;
    c[7][n] = end;
    c[8][n] = record;
    c[9][n] = column;
    c[10][n] = contextToken;
    c[11][n] = imageToken;
    this.count = n + 1;
  }

  finish(): AnchorColumns {
    const trim = (c: Int32Array) => trimColumn(c, this.count);
    const [rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken] = this.columns.map(trim) as Int32Array[];
    return { count: this.count, rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken } as AnchorColumns;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = this.columns.map((old) => {
      const next = new Int32Array(this.capacity);
      next.set(old);
      return next;
    });
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
