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

/** Columns of one AnchorTable block: rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken. */
type Block = [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];

const FIELDS = ANCHOR_BYTES / 4;

/**
 * Collects anchors rule by rule, past `limit` anchors `tooMany()` is thrown (explain's memory bound).
 *
 * The columns fill in blocks: the first as large as the expected count, each later one half as large
 * as all before it. Growing never copies what is written (a doubling copy of 12 columns cost as much as
 * a tenth of explaining a large file, mostly in faults on fresh pages); `finish` copies once, into
 * columns of the exact count, unless one block holds everything and is nearly full.
 */
export class AnchorTable implements AnchorSink {
  private readonly blocks: Block[] = [];
  private block: Block;
  /** Rows written into `block`, and its size. */
  private fill = 0;
  private size: number;
  /** The rule of the anchors pushed next. */
  rule = 0;
  count = 0;

  /** `expected`: how many anchors there will probably be (the first block is that large). */
  constructor(
    private readonly limit: number,
    private readonly tooMany: () => Error,
    expected = 4096,
  ) {
    this.size = Math.max(1024, Math.min(expected, limit));
    this.block = newBlock(this.size);
    this.blocks.push(this.block);
  }

  push(kind: number, section: number, token: number, tokenIndex: number, lastTokenIndex: number, start: number, end: number, record: number, column: number, contextToken: number, imageToken: number): void {
    if (this.count >= this.limit) throw this.tooMany();
    if (this.fill === this.size) this.addBlock();
    const c = this.block;
    const n = this.fill;
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
    this.fill = n + 1;
    this.count++;
  }

  finish(): AnchorColumns {
    const count = this.count;
    let columns: Int32Array[];
    if (this.blocks.length === 1) columns = this.block.map((c) => trimColumn(c, count));
    else {
      columns = Array.from({ length: FIELDS }, () => new Int32Array(count));
      let at = 0;
      for (const block of this.blocks) {
        const rows = block === this.block ? this.fill : (block[0] as Int32Array).length;
        for (let f = 0; f < FIELDS; f++) (columns[f] as Int32Array).set((block[f] as Int32Array).subarray(0, rows), at);
        at += rows;
      }
    }
    const [rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken] = columns as Int32Array[];
    return { count, rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken } as AnchorColumns;
  }

  private addBlock(): void {
    this.size = Math.max(1024, this.count >>> 1);
    this.block = newBlock(this.size);
    this.blocks.push(this.block);
    this.fill = 0;
  }
}

function newBlock(size: number): Block {
  return Array.from({ length: FIELDS }, () => new Int32Array(size)) as Block;
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
