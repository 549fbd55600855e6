/**
 * The nkpi keystream and its seeds (pvf-nkpi-format §2). The keystream is the MSVC `rand()` LCG,
 * `state ← A·state + M` (mod 2^32), two steps per 32-bit key word `(t1 & 0xFFFF0000) | (state >>> 16)`;
 * the stream restarts from its seed for every encrypted unit (header, HASH, GRPI, each pool, each body
 * chunk). XOR makes encryption and decryption the same operation.
 */

const LCG_A = 0x343fd;
/** Increment of every section but the pools. */
export const LCG_MAIN = 0x269ec3;
/** Increment of the sTrA / sTrW pools. */
export const LCG_ALT = 0x269ec9;

/** The key set names of §2.3. */
export type NkpiKeySetName = 'standard' | 'alternate' | 'paged110';

/** Seeds and pool length masks of one key set (§2.3, §2.4). */
export interface NkpiKeySet {
  name: NkpiKeySetName;
  /** The key names the seeds come from, for messages ("HeaD/HASH/GRPI/BodY/sTrA/sTrW"). */
  keyNames: string;
  header: number;
  hash: number;
  grpi: number;
  body: number;
  strA: number;
  strW: number;
  maskA: number;
  maskW: number;
}

/** ASCII seed (standard keys) of a 4-character key: `0x76826701·k0 + 0x1C1·(k3 + 0x1C1·(k2 + 0x1C1·k1))`. */
export function asciiSeed(key: string): number {
  const [k0, k1, k2, k3] = fourUnits(key);
  const inner = (Math.imul(0x1c1, (k2 + Math.imul(0x1c1, k1)) >>> 0) + k3) >>> 0;
  return (Math.imul(0x76826701, k0) + Math.imul(0x1c1, inner)) >>> 0;
}

/** Wide seed (alternate and Paged110 keys) of four UTF-16 units: `0x339E9711·u0 + 0x393·(u3 + 0x393·(u2 + 0x393·u1))`. */
export function wideSeed(key: string): number {
  const [u0, u1, u2, u3] = fourUnits(key);
  const inner = (Math.imul(0x393, (u2 + Math.imul(0x393, u1)) >>> 0) + u3) >>> 0;
  return (Math.imul(0x339e9711, u0) + Math.imul(0x393, inner)) >>> 0;
}

function fourUnits(key: string): [number, number, number, number] {
  if (key.length !== 4) throw new Error(`an nkpi key name has 4 characters, not ${JSON.stringify(key)}`);
  return [key.charCodeAt(0), key.charCodeAt(1), key.charCodeAt(2), key.charCodeAt(3)];
}

/** Standard keys (pvfine `standard`, 90US; manydots "JP"/"JPAG"). */
export const STANDARD_KEYS: NkpiKeySet = {
  name: 'standard',
  keyNames: 'HeaD/HASH/GRPI/BodY/sTrA/sTrW',
  header: asciiSeed('HeaD'),
  hash: asciiSeed('HASH'),
  grpi: asciiSeed('GRPI'),
  body: asciiSeed('BodY'),
  strA: asciiSeed('sTrA'),
  strW: asciiSeed('sTrW'),
  maskA: 0xaa74472e,
  maskW: 0x9a82f037,
};

/** Alternate keys (pvfine `alternate`, 90CN; manydots "CN"). */
export const ALTERNATE_KEYS: NkpiKeySet = {
  name: 'alternate',
  keyNames: 'hEAd/hash/grpi/bODy/StRa/StRw',
  header: wideSeed('hEAd'),
  hash: wideSeed('hash'),
  grpi: wideSeed('grpi'),
  body: wideSeed('bODy'),
  strA: wideSeed('StRa'),
  strW: wideSeed('StRw'),
  maskA: 0xaa74472e,
  maskW: 0x9a82f037,
};

/** Paged110 keys of the logical archive (110US), after the page guards are unlocked (§14). */
export const PAGED110_KEYS: NkpiKeySet = {
  name: 'paged110',
  keyNames: 'iNfO/(HASH solved)/Gidx/mAIn/stAs/stWs',
  header: wideSeed('iNfO'),
  // No key name is given for HASH; pvfine solved the seed (§14.4).
  hash: 0x5824c072,
  grpi: wideSeed('Gidx'),
  body: wideSeed('mAIn'),
  strA: wideSeed('stAs'),
  strW: wideSeed('stWs'),
  maskA: 0xe7adf7ea,
  maskW: 0xb8dea7ac,
};

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * XORs `bytes` in place with the keystream of `seed` / increment `m` and returns it. Whole words use
 * the key words in order; 1–3 trailing bytes use bytes 0, 1, 2 of the next key word.
 */
export function xorKeystream(bytes: Uint8Array, seed: number, m: number): Uint8Array {
  let state = seed >>> 0;
  const words = bytes.length >>> 2;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
    for (let i = 0; i < words; i++) {
      const t1 = (Math.imul(LCG_A, state) + m) >>> 0;
      state = (Math.imul(LCG_A, t1) + m) >>> 0;
      view[i] = (view[i] as number) ^ ((t1 & 0xffff0000) | (state >>> 16));
    }
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < words; i++) {
      const t1 = (Math.imul(LCG_A, state) + m) >>> 0;
      state = (Math.imul(LCG_A, t1) + m) >>> 0;
      view.setUint32(4 * i, (view.getUint32(4 * i, true) ^ ((t1 & 0xffff0000) | (state >>> 16))) >>> 0, true);
    }
  }
  const rest = bytes.length & 3;
  if (rest > 0) {
    const t1 = (Math.imul(LCG_A, state) + m) >>> 0;
    state = (Math.imul(LCG_A, t1) + m) >>> 0;
    const key = ((t1 & 0xffff0000) | (state >>> 16)) >>> 0;
    const base = words * 4;
    for (let j = 0; j < rest; j++) bytes[base + j] = (bytes[base + j] as number) ^ ((key >>> (8 * j)) & 0xff);
  }
  return bytes;
}

/** The first key word of a seed: what XORs the first 4 bytes of a unit (detection needs only this). */
export function firstKeyWord(seed: number, m: number): number {
  const t1 = (Math.imul(LCG_A, seed >>> 0) + m) >>> 0;
  const state = (Math.imul(LCG_A, t1) + m) >>> 0;
  return ((t1 & 0xffff0000) | (state >>> 16)) >>> 0;
}
