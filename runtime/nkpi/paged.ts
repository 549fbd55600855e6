/**
 * Paged110 page guards (pvf-nkpi-format §14): the first 10,240 bytes of every 10 MiB page are
 * AES-256-CBC encrypted in place (IV 0, chain restarting per page, page i with key i); pages past the
 * key count and a last page shorter than 10,240 bytes are plain. Without the page keys (which come
 * from the client's `sk.dat`, RSA-unwrapped with a key inside the client executable) nothing can be
 * read: the header, pools and GRPI all lie in or across guarded windows. pvfdoc ships no keys; this
 * module only (a) recognises such an archive by its plaintext file table after the first guard and
 * (b) reads one when a caller supplies already unwrapped page keys.
 */
import { createDecipheriv } from 'node:crypto';
import type { ArchiveSource } from '../script/archive-source.js';

export const PAGE_BYTES = 10 * 1024 * 1024;
export const PAGE_GUARD_BYTES = 10 * 1024;
/** Offset of the first file item after page 0's guard (item 425 starts at 0x2808 in 110US). */
export const FIRST_PLAIN_ITEM = 48 + 24 * Math.ceil((PAGE_GUARD_BYTES - 48) / 24);

/** AES-256-CBC (IV 0, no padding) decryption of one page prefix. */
function decryptPagePrefix(prefix: Uint8Array, key: Uint8Array): Buffer {
  const decipher = createDecipheriv('aes-256-cbc', key, Buffer.alloc(16));
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(prefix), decipher.final()]);
}

/** A source that reads through the page guards with the given page keys (32 bytes each). */
export function pagedSource(source: ArchiveSource, pageKeys: readonly Uint8Array[]): ArchiveSource {
  const prefixes = new Map<number, Buffer>();
  const guardLength = (page: number): number => {
    if (page >= pageKeys.length) return 0;
    const pageLength = Math.min(PAGE_BYTES, source.size - page * PAGE_BYTES);
    return pageLength < PAGE_GUARD_BYTES ? 0 : PAGE_GUARD_BYTES;
  };
  const prefix = (page: number): Buffer => {
    let plain = prefixes.get(page);
    if (!plain) {
      plain = decryptPagePrefix(source.read(page * PAGE_BYTES, PAGE_GUARD_BYTES), pageKeys[page] as Uint8Array);
      prefixes.set(page, plain);
    }
    return plain;
  };
  return {
    label: source.label,
    size: source.size,
    read(position, length) {
      const bytes = source.read(position, length);
      if (bytes.length === 0) return bytes;
      const end = position + bytes.length;
      for (let page = Math.floor(position / PAGE_BYTES); page * PAGE_BYTES < end; page++) {
        const guard = guardLength(page);
        if (guard === 0) continue;
        const from = Math.max(position, page * PAGE_BYTES);
        const to = Math.min(end, page * PAGE_BYTES + guard);
        if (from >= to) continue;
        const plain = prefix(page);
        bytes.set(plain.subarray(from - page * PAGE_BYTES, to - page * PAGE_BYTES), from - position);
      }
      return bytes;
    },
    changed: () => source.changed(),
    close: () => source.close(),
  };
}

/**
 * Whether plaintext file items follow page 0's guard (`items` = the bytes from FIRST_PLAIN_ITEM): data
 * types 1 or 3, non-negative offsets and sizes, chunk indexes never decreasing and, inside a chunk,
 * each item starting where the previous ended — the layout of a Paged110 file table (§14.1, §5).
 */
export function looksLikePagedFileTable(items: Uint8Array): boolean {
  const n = Math.min(256, Math.floor(items.length / 24));
  if (n < 16) return false;
  const view = new DataView(items.buffer, items.byteOffset, items.byteLength);
  let pairs = 0;
  let consecutive = 0;
  let previousChunk = -1;
  let previousEnd = 0;
  for (let i = 0; i < n; i++) {
    const at = 24 * i;
    const name = view.getInt32(at, true);
    const path = view.getInt32(at + 4, true);
    const chunk = view.getInt32(at + 8, true);
    const offset = view.getInt32(at + 12, true);
    const size = view.getInt32(at + 16, true);
    const type = view.getInt32(at + 20, true);
    if (type !== 1 && type !== 3) return false;
    if (name < -1 || path < -1 || chunk < 0 || chunk > 1 << 24 || offset < 0 || size < 0) return false;
    if (chunk < previousChunk) return false;
    if (chunk === previousChunk) {
      pairs++;
      if (offset === previousEnd) consecutive++;
    }
    previousChunk = chunk;
    previousEnd = offset + size;
  }
  return pairs >= 8 && consecutive >= pairs * 0.9;
}
