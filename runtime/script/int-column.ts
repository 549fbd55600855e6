/**
 * A growing column of 32-bit integers: the storage of views and explanations that hold millions of
 * entries, where an object per entry would cost ten times the memory and most of the time in GC.
 */
export class IntColumn {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  /** The entry at `index` (0 past the end). */
  at(index: number): number {
    return this.data[index] ?? 0;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** The entries: a trimmed copy, or the storage itself when it is nearly full (no second copy at the peak). */
  finish(): Int32Array {
    return trimColumn(this.data, this.length);
  }

  private grow(): void {
    const next = new Int32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

/**
 * The first `length` entries of a column: the storage itself when it is nearly full (a copy would
 * double the peak), else a copy without the spare room.
 */
export function trimColumn<T extends Int32Array | Uint8Array>(column: T, length: number): T {
  return (length >= column.length * 0.875 ? column.subarray(0, length) : column.slice(0, length)) as T;
}

/**
 * A column of integers kept in blocks of 2^bits entries (the last may be shorter): entry i is
 * `blocks[i >>> bits][i & (2^bits - 1)]`. A column that grows in blocks is never copied whole, which
 * for the columns of a large explanation was a copy of tens of MiB into pages never touched before.
 */
export interface BlockedColumn {
  readonly bits: number;
  readonly blocks: readonly Int32Array[];
}

/** Widest block: a column of one block holds up to 2^30 entries. */
const WHOLE_BITS = 30;

/** A plain column as a blocked one (one block). */
export function wholeColumn(column: Int32Array): BlockedColumn {
  return { bits: WHOLE_BITS, blocks: [column] };
}

/** Entry `i` of a blocked column. */
export function entryAt(column: BlockedColumn, i: number): number {
  return (column.blocks[i >>> column.bits] as Int32Array)[i & ((1 << column.bits) - 1)] as number;
}
