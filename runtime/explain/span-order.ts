/**
 * The order of explain's annotations: by start, then end, then the order they were made in (rules in
 * explain order before runtime items). A stable radix sort, in passes a caller can run between other
 * requests: a comparison sort of millions of spans is one uninterruptible call of seconds, and this is
 * linear.
 */

/** Offsets are UTF-16 indexes of a text below 2^31 units; digits of 16 bits, so most keys need one or two passes. */
const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGITS - 1;

/**
 * Ids 0…count-1 sorted by (start[id], end[id], id), yielding after each pass. For one start, ordering
 * by end is ordering by length, which is short: the least significant key is the length (one pass
 * unless a span is 64 Ki units long), then the start (one pass per 16 bits it needs).
 */
export function* sortBySpan(start: Int32Array, end: Int32Array, count: number): Generator<void, Int32Array> {
  const length = new Int32Array(count);
  let longest = 0;
  let last = 0;
  for (let i = 0; i < count; i++) {
    const n = (end[i] as number) - (start[i] as number);
    length[i] = n;
    if (n > longest) longest = n;
    if ((start[i] as number) > last) last = start[i] as number;
  }
  const passes: [Int32Array, number][] = [];
  // (A shift of 32 is a shift of 0 in JavaScript: two 16-bit digits cover every non-negative int32.)
  for (let shift = 0; shift < 32 && (shift === 0 || longest >>> shift > 0); shift += DIGIT_BITS) passes.push([length, shift]);
  for (let shift = 0; shift < 32 && (shift === 0 || last >>> shift > 0); shift += DIGIT_BITS) passes.push([start, shift]);
  let order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let spare = new Int32Array(count);
  // Least significant key first; each pass is stable, so ties keep the order of the previous one.
  for (const [keys, shift] of passes) {
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
