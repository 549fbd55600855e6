/**
 * Go's `strings.TrimSpace`: strips Unicode White_Space from both ends. pvfine trims marker bodies,
 * sentinel and width tokens, image indexes and paths with it; JavaScript's `trim()` differs (it strips
 * U+FEFF and keeps U+0085), so the explain engine uses this one wherever pvfine trims.
 */
export function trimSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isGoSpace(value.charCodeAt(start))) start++;
  while (end > start && isGoSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** Unicode White_Space, as Go's `unicode.IsSpace`. */
export function isGoSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}
