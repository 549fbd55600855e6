/**
 * The order of explain's annotations: by start, then end, then the order they were made in (rules in
 * explain order before runtime items). A stable radix sort, in passes a caller can run between other
 * requests: a comparison sort of millions of spans is one uninterruptible call of seconds, and this is
 * linear.
 */
import { entryAt, type BlockedColumn } from '../script/int-column.js';

/**
 * Widest digit of a pass. 11 bits keep a pass's counts (8 KiB) in the first-level cache, where 16-bit
 * digits (256 KiB of counts) missed on every increment; a 4 Mi-unit text still needs two passes.
 */
const MAX_DIGIT_BITS = 11;
/** Equal starts up to this many are put in order by insertion; longer runs by a comparison sort. */
const INSERTION_RUN = 32;

/**
 * Ids 0…count-1 sorted by (start[id], end[id], id), yielding after each pass. The passes sort by start
 * alone (stable, so equal starts stay in id order); then each run of equal starts is put in order by
 * end, which for one start is its length: such runs are a token and the few rules anchored on it.
 *
 * Each pass moves the start beside its id, so a pass reads its keys in order: looking a key up by id
 * (`start[order[i]]`) is a cache miss per id once the ids are shuffled, and that lookup was most of the
 * sort's time.
 */
export function* sortBySpan(start: BlockedColumn, end: BlockedColumn, count: number): Generator<void, Int32Array> {
  let last = 0;
  for (const block of blocksUpTo(start, count)) for (let k = 0; k < block.length; k++) if ((block[k] as number) > last) last = block[k] as number;
  const bits = 32 - Math.clz32(last);
  const passes = Math.max(1, Math.ceil(bits / MAX_DIGIT_BITS));
  const digitBits = Math.max(1, Math.ceil(bits / passes));
  let order = new Int32Array(count);
  let keys = new Int32Array(count);
  let spare = new Int32Array(count);
  let spareKeys = new Int32Array(count);
  const counts = new Int32Array((1 << digitBits) + 1);
  // Least significant digit first; each pass is stable, so ties keep the order of the previous one.
  for (let pass = 0; pass < passes; pass++) {
    if (pass === 0) firstPass(start, order, keys, digitBits, count, counts);
    else {
      passByDigit(order, keys, spare, spareKeys, pass * digitBits, digitBits, count, counts);
      [order, spare] = [spare, order];
      [keys, spareKeys] = [spareKeys, keys];
    }
    yield;
  }
  orderEqualStarts(order, keys, end, count);
  yield;
  return order;
}

/** The first pass: ids in order (0…count-1), keys read from `start` block by block. */
function firstPass(start: BlockedColumn, to: Int32Array, toKeys: Int32Array, digitBits: number, count: number, counts: Int32Array): void {
  const mask = (1 << digitBits) - 1;
  counts.fill(0);
  for (const block of blocksUpTo(start, count)) {
    for (let k = 0; k < block.length; k++) {
      const slot = ((block[k] as number) & mask) + 1;
      counts[slot] = (counts[slot] as number) + 1;
    }
  }
  for (let d = 1; d <= mask + 1; d++) counts[d] = (counts[d] as number) + (counts[d - 1] as number);
  let i = 0;
  for (const block of blocksUpTo(start, count)) {
    for (let k = 0; k < block.length; k++, i++) {
      const key = block[k] as number;
      const digit = key & mask;
      const at = counts[digit] as number;
      to[at] = i;
      toKeys[at] = key;
      counts[digit] = at + 1;
    }
  }
}

/** The blocks of a column holding its first `count` entries, the last cut to end there. */
function* blocksUpTo(column: BlockedColumn, count: number): Generator<Int32Array> {
  for (let b = 0, seen = 0; seen < count; b++) {
    const block = column.blocks[b] as Int32Array;
    const n = Math.min(block.length, count - seen);
    yield n === block.length ? block : block.subarray(0, n);
    seen += n;
  }
}

/** One counting-sort pass of (`from`, `fromKeys`) into (`to`, `toKeys`) by the key's digit at `shift`. */
function passByDigit(from: Int32Array, fromKeys: Int32Array, to: Int32Array, toKeys: Int32Array, shift: number, digitBits: number, count: number, counts: Int32Array): void {
  const mask = (1 << digitBits) - 1;
  counts.fill(0);
  for (let i = 0; i < count; i++) {
    const slot = (((fromKeys[i] as number) >>> shift) & mask) + 1;
    counts[slot] = (counts[slot] as number) + 1;
  }
  for (let d = 1; d <= mask + 1; d++) counts[d] = (counts[d] as number) + (counts[d - 1] as number);
  for (let i = 0; i < count; i++) {
    const key = fromKeys[i] as number;
    const digit = (key >>> shift) & mask;
    const at = counts[digit] as number;
    to[at] = from[i] as number;
    toKeys[at] = key;
    counts[digit] = at + 1;
  }
}

/** Within each run of equal starts (`keys`: the starts in sorted order; ids ascending), orders by end, equal ends keeping id order. */
function orderEqualStarts(order: Int32Array, keys: Int32Array, end: BlockedColumn, count: number): void {
  let runStart = 0;
  for (let i = 1; i <= count; i++) {
    if (i < count && keys[i] === keys[runStart]) continue;
    const length = i - runStart;
    if (length > INSERTION_RUN) order.subarray(runStart, i).sort((a, b) => entryAt(end, a) - entryAt(end, b) || a - b);
    else if (length > 1) {
      for (let k = runStart + 1; k < i; k++) {
        const id = order[k] as number;
        const e = entryAt(end, id);
        let j = k - 1;
        while (j >= runStart && entryAt(end, order[j] as number) > e) {
          order[j + 1] = order[j] as number;
          j--;
        }
        order[j + 1] = id;
      }
    }
    runStart = i;
  }
}
