/**
 * The order of explain's annotations: by start, then end, then the order they were made in (rules in
 * explain order before runtime items). A stable radix sort over the two offsets, in passes a caller
 * can run between other requests: a comparison sort of millions of spans is one uninterruptible call of
 * seconds, and this is linear.
 */

/** Offsets are UTF-16 indexes of a text below 2^26 units (explain reads at most 32 Mi). */
const DIGIT_BITS = 13;
const DIGITS = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGITS - 1;

/**
 * Ids 0…count-1 sorted by (start[id], end[id], id), yielding after each pass. Offsets must be below
 * 2^26.
 */
export function* sortBySpan(start: Int32Array, end: Int32Array, count: number): Generator<void, Int32Array> {
  let order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let spare = new Int32Array(count);
  // Least significant key first; each pass is stable, so ties keep the order of the previous one.
  for (const [keys, shift] of [
    [end, 0],
    [end, DIGIT_BITS],
    [start, 0],
    [start, DIGIT_BITS],
  ] as const) {
    passByDigit(order, spare, keys, shift, count);
    [order, spare] = [spare, order];
    yield;
  }
  return order;
}

/** One counting-sort pass of `from` into `to` by the digit of keys[id] at `shift`. */
function passByDigit(from: Int32Array, to: Int32Array, keys: Int32Array, shift: number, count: number): void {
  const offsets = new Int32Array(DIGITS + 1);
  for (let i = 0; i < count; i++) {
    const slot = (((keys[from[i] as number] as number) >>> shift) & DIGIT_MASK) + 1;
    offsets[slot] = (offsets[slot] as number) + 1;
  }
  for (let d = 1; d <= DIGITS; d++) offsets[d] = (offsets[d] as number) + (offsets[d - 1] as number);
  for (let i = 0; i < count; i++) {
    const id = from[i] as number;
    const digit = ((keys[id] as number) >>> shift) & DIGIT_MASK;
    const at = offsets[digit] as number;
    to[at] = id;
    offsets[digit] = at + 1;
  }
}
