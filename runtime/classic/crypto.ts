/**
 * The classic container's primitives (pvf-classic-format §2.2): the seeded CRC-32, the file-name hash
 * and the XOR/rotate block cipher. Pure functions over bytes; nothing here reads files.
 */
import zlib from 'node:zlib';

/** The fixed part of the block cipher key (§2.2c). */
const CIPHER_KEY = 0x81a79011;

let crcTable: Uint32Array | undefined;

function table(): Uint32Array {
  if (crcTable) return crcTable;
  crcTable = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crcTable[n] = c >>> 0;
  }
  return crcTable;
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/**
 * zlib's running CRC-32 with a seed (§2.2a): `crc32(data, seed)` continues a CRC whose value so far is
 * `seed`; an empty input gives the seed back. Node's `zlib.crc32` when present (Node ≥ 20.15).
 */
export function crc32(data: Uint8Array, seed: number): number {
  // Node's zlib.crc32 returns 0 for some empty views (e.g. a subarray of an empty array): answer directly.
  if (data.length === 0) return seed >>> 0;
  if (nativeCrc32) return nativeCrc32(data, seed >>> 0) >>> 0;
  const t = table();
  let c = ~seed >>> 0;
  for (let i = 0; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** djb2 with one extra multiply, over the stored (encoded) name bytes (§2.2b). */
export function nameHash(name: Uint8Array): number {
  let h = 5381;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 33) + (name[i] as number)) >>> 0;
  return Math.imul(h, 33) >>> 0;
}

/** Rounds a length up to the 4-byte block size (§2.4). */
export function blockLength(length: number): number {
  // Plain arithmetic: `(length + 3) & ~3` overflows int32 for lengths near 2^31.
  return Math.ceil(length / 4) * 4;
}

/** Whether words can be read through a Uint32Array (host byte order is the format's little-endian). */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Decrypts `block` in place with its checksum `crc` (§2.2c): each little-endian word becomes
 * `ROR32(w ^ KEY ^ crc, 6)`. The length must be a multiple of 4 (callers pass whole blocks).
 */
export function decryptBlock(block: Uint8Array, crc: number): void {
  const key = (CIPHER_KEY ^ crc) | 0;
  const end = block.byteLength & ~3;
  // The tree and stringtable.bin are megabytes decrypted at open: words at a time when aligned.
  if (LITTLE_ENDIAN_HOST && block.byteOffset % 4 === 0) {
    const words = new Int32Array(block.buffer, block.byteOffset, end >>> 2);
    for (let i = 0; i < words.length; i++) {
      const w = (words[i] as number) ^ key;
      words[i] = (w >>> 6) | (w << 26);
    }
    return;
  }
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (let i = 0; i < end; i += 4) {
    const w = (view.getUint32(i, true) ^ key) >>> 0;
    view.setUint32(i, ((w >>> 6) | (w << 26)) >>> 0, true);
  }
}

/** Encrypts `block` in place (the inverse of decryptBlock): `ROL32(p, 6) ^ crc ^ KEY`. */
export function encryptBlock(block: Uint8Array, crc: number): void {
  const key = (CIPHER_KEY ^ crc) >>> 0;
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const end = block.byteLength & ~3;
  for (let i = 0; i < end; i += 4) {
    const p = view.getUint32(i, true);
    view.setUint32(i, (((p << 6) | (p >>> 26)) ^ key) >>> 0, true);
  }
}
