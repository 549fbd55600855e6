/**
 * Shared inputs of the nkpi tests: the vector of test/fixtures/vectors, the zlib 1.2.13 streams it was made with (so the
 * writer can reproduce it byte for byte), temp folders and the PvfdocError catchers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { LCG_ALT, LCG_MAIN, STANDARD_KEYS, xorKeystream } from '../../../runtime/nkpi/keystream.js';
import { makeTempDir as makeTestTempDir } from '../../support/temp-dirs.js';

export { caught, caughtAsync } from '../../support/caught.js';
export { seededRandom } from '../../support/random.js';
export { removeTempDirs } from '../../support/temp-dirs.js';

export const NKPI_PVF = path.resolve(import.meta.dirname, '../../fixtures/vectors/nkpi-standard.pvf');
export const NKPI_SHA256 = '8f8c5e9482d5f9cedb1db2b7e3f91aef7475e8f648365b23d0d490e65b6e6041';
export const NKPI_ALTERNATE_SHA256 = 'ad78e3426f63b60e7d5d9ae8d6ee1024c03a901e1b2ffd56437869b7cbd55bf8';
export const NKPI_ALTERNATE_HEADER = '2225e8332c0158c24719739aaa50009990a7e0c2f0e3bcf2d52b8c49def0895e8a354e9ec812e5e9a3c7d2692cc227be';

/** The §17.5 contents, as script text and text file. */
export const VECTOR_SCRIPT = '[name]\n`名字`\n[grade]\n74 1.5\n{5=`x``y`}';
export const VECTOR_STR = 'k>v\r\n';

export function vectorBytes(): Buffer {
  return readFileSync(NKPI_PVF);
}

/**
 * zlib 1.2.13 level-6 streams of the vector (sTrA, sTrW, chunk 0), decrypted from the vector itself:
 * raw bytes (hex) → stream. Node's own zlib compresses two of them differently.
 */
function vectorStreams(): Map<string, Buffer> {
  const bytes = vectorBytes();
  const streams = new Map<string, Buffer>();
  const add = (stream: Buffer) => streams.set(inflateSync(stream).toString('hex'), stream);
  add(xorKeystream(Buffer.from(bytes.subarray(148, 188)), STANDARD_KEYS.strA, LCG_ALT) as Buffer);
  add(xorKeystream(Buffer.from(bytes.subarray(196, 212)), STANDARD_KEYS.strW, LCG_ALT) as Buffer);
  add(xorKeystream(Buffer.from(bytes.subarray(220)), STANDARD_KEYS.body, LCG_MAIN) as Buffer);
  return streams;
}

/** A deflate that answers the vector's raw inputs with the vector's streams (else throws). */
export function vectorDeflate(): (raw: Buffer) => Buffer {
  const streams = vectorStreams();
  return (raw) => {
    const stream = streams.get(raw.toString('hex'));
    if (!stream) throw new Error(`no zlib 1.2.13 stream known for ${raw.toString('hex')}`);
    return Buffer.from(stream);
  };
}

/** The suite's prefix tells whose folder a leftover temp folder is. */
export function makeTempDir(prefix = 'pvfdoc-nkpi-'): string {
  return makeTestTempDir(prefix);
}
