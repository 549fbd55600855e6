/**
 * Every anchor of one file's rules, in columns (one Int32 per field): what explain keeps of a file
 * between pages. An anchor becomes an object only when its annotation is returned.
 */
import { entryAt, trimColumn, type BlockedColumn } from '../script/int-column.js';
import type { ScriptView } from '../script/parse-script-view.js';
import { anchorRecord, type Anchor, type AnchorSink } from './compute-anchors.js';

/** Every anchor's fields, one blocked column each (entry `id` of a column: entryAt). */
export interface AnchorColumns {
  count: number;
  /** Index of the anchor's rule in the explanation's rule list. */
  rule: BlockedColumn;
  kind: BlockedColumn;
  section: BlockedColumn;
  token: BlockedColumn;
  tokenIndex: BlockedColumn;
  lastTokenIndex: BlockedColumn;
  start: BlockedColumn;
  end: BlockedColumn;
  record: BlockedColumn;
  column: BlockedColumn;
  contextToken: BlockedColumn;
  imageToken: BlockedColumn;
}

/** Bytes an anchor takes in the columns. */
export const ANCHOR_BYTES = 12 * 4;

const FIELDS = ANCHOR_BYTES / 4;

/** Rows of a full block: 32 Ki anchors, 1.5 MiB over the twelve columns. */
const BLOCK_BITS = 15;
const BLOCK_ROWS = 1 << BLOCK_BITS;

/** Columns of one block: rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken. */
type Block = [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];

/**
 * Collects anchors rule by rule, past `limit` anchors `tooMany()` is thrown (explain's memory bound).
 *
 * The columns are blocked (BlockedColumn): below one full block the first block doubles as anchors
 * arrive (copies of at most a block), then full blocks are added and nothing written is copied again.
 * `finish` trims only the last block. Copying twelve whole columns on growth and again to trim them
 * cost a tenth of explaining a 4 MB script, mostly in faults on fresh pages.
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

  /** `expected`: how many anchors there will probably be (the first block is that large, up to a full block). */
  constructor(
    private readonly limit: number,
    private readonly tooMany: () => Error,
    expected = 4096,
  ) {
    this.size = Math.min(BLOCK_ROWS, Math.max(1024, Math.min(expected, limit)));
    this.block = newBlock(this.size);
    this.blocks.push(this.block);
  }

  push(kind: number, section: number, token: number, tokenIndex: number, lastTokenIndex: number, start: number, end: number, record: number, column: number, contextToken: number, imageToken: number): void {
    if (this.count >= this.limit) throw this.tooMany();
    if (this.fill === this.size) this.grow();
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
    const fill = this.fill;
    const last = this.block.map((c) => trimColumn(c, fill)) as Block;
    const blocks = [...this.blocks.slice(0, -1), last];
    const field = (f: number): BlockedColumn => ({ bits: BLOCK_BITS, blocks: blocks.map((b) => b[f] as Int32Array) });
    const [rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken] = Array.from({ length: FIELDS }, (_, f) => field(f));
    return { count: this.count, rule, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken } as AnchorColumns;
  }

  private grow(): void {
    if (this.size < BLOCK_ROWS) {
      // Only the first block is ever smaller than a full one: it doubles in place of itself.
      const size = Math.min(BLOCK_ROWS, this.size * 2);
      const bigger = newBlock(size);
      for (let f = 0; f < FIELDS; f++) (bigger[f] as Int32Array).set(this.block[f] as Int32Array);
      this.blocks[0] = bigger;
      this.block = bigger;
      this.size = size;
      return;
    }
    this.block = newBlock(BLOCK_ROWS);
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
    entryAt(a.kind, id),
    entryAt(a.section, id),
    entryAt(a.token, id),
    entryAt(a.tokenIndex, id),
    entryAt(a.lastTokenIndex, id),
    entryAt(a.start, id),
    entryAt(a.end, id),
    entryAt(a.record, id),
    entryAt(a.column, id),
    entryAt(a.contextToken, id),
    entryAt(a.imageToken, id),
  );
}
