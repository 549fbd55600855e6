/**
 * The classic header (pvf-classic-format §2.1) and the family check of §6.3: classic, nkpi (told apart
 * by its encrypted `nkpi` signature) or not a PVF at all. Every field is bounded by the file size
 * before anything is allocated from it.
 */
import { hex32, invalidArchive } from '../script/archive-error.js';

/** Largest GUID length accepted (§6.3); real archives use 36. */
const MAX_GUID_LENGTH = 4096;

/** Bytes to read from the start of a file to parse any acceptable header. */
export const HEADER_PROBE_BYTES = 20 + MAX_GUID_LENGTH;

/** Smallest encoded tree entry: hash, name length, data length, CRC, offset (§2.3). */
const MIN_TREE_ENTRY_BYTES = 20;

export interface ClassicHeader {
  guidLength: number;
  /** The GUID text (latin1 view of the stored bytes). */
  guid: string;
  /** "Revision" field; copied through, never interpreted. */
  fileVersion: number;
  treeLength: number;
  /** Checksum of the decrypted tree and its cipher key. */
  treeCrc: number;
  fileCount: number;
  /** Absolute offset of the encrypted tree (20 + guidLength). */
  treeOffset: number;
  /** Absolute offset of the data area; file offsets count from here. */
  dataBase: number;
}

export const NKPI_MESSAGE = 'this is an nkpi-family archive (pvfine 90US/90CN/110US), not a classic pvfUtility one';

const NKPI_SIGNATURE = 0x69706b6e;
const LCG_A = 0x343fd;
const LCG_MAIN = 0x269ec3;
const LCG_ALT = 0x269ec9;

/** nkpi header seeds (pvf-nkpi-format §2.3): standard `HeaD` with both increments, alternate `hEAd`. */
const NKPI_HEADER_PROBES: readonly { seed: number; m: number; keys: string }[] = [
  { seed: 0x76c5d612, m: LCG_MAIN, keys: 'standard (90US)' },
  { seed: 0x76c5d612, m: LCG_ALT, keys: 'standard (90US)' },
  { seed: 0x4a454634, m: LCG_MAIN, keys: 'alternate (90CN)' },
];

/**
 * The nkpi key set whose first keystream word turns the first 4 bytes into `nkpi`, or null. The guard
 * (XOR of bytes 24..27) never touches the signature word.
 */
function detectNkpi(start: Uint8Array): string | null {
  if (start.length < 48) return null;
  const word = ((start[0] as number) | ((start[1] as number) << 8) | ((start[2] as number) << 16) | ((start[3] as number) << 24)) >>> 0;
  for (const probe of NKPI_HEADER_PROBES) {
    const t1 = (Math.imul(LCG_A, probe.seed) + probe.m) >>> 0;
    const state = (Math.imul(LCG_A, t1) + probe.m) >>> 0;
    const key = ((t1 & 0xffff0000) | (state >>> 16)) >>> 0;
    if (((word ^ key) >>> 0) === NKPI_SIGNATURE) return probe.keys;
  }
  return null;
}

/**
 * Parses and checks the header from the first bytes of a file (`start`, at least
 * min(fileSize, HEADER_PROBE_BYTES) bytes). INVALID_ARCHIVE for nkpi archives, files that are not a
 * PVF, truncated headers and inconsistent counts or lengths.
 */
export function parseClassicHeader(start: Uint8Array, fileSize: number, label: string): ClassicHeader {
  const notPvf = (why: string) =>
    invalidArchive(label, `not a PVF archive: ${why}`, { family: 'unknown' }, 'Point the workspace at a classic (pvfUtility) Script.pvf file.');
  if (fileSize < 4) throw notPvf(`the file is ${fileSize} bytes long, too short for any PVF header`);
  const nkpi = detectNkpi(start);
  if (nkpi !== null) {
    throw invalidArchive(label, `${NKPI_MESSAGE} (its header decrypts to the nkpi signature with the ${nkpi} keys)`, { family: 'nkpi' }, 'nkpi archives are not supported by this workspace kind yet; use a classic Script.pvf or a folder of decompiled scripts.');
  }
  const view = new DataView(start.buffer, start.byteOffset, start.byteLength);
  const guidLength = view.getInt32(0, true);
  if (guidLength < 4 || guidLength > MAX_GUID_LENGTH) {
    throw notPvf(`it neither starts with a classic header (GUID length ${guidLength}, expected 4..${MAX_GUID_LENGTH}, in practice 36) nor decrypts to the nkpi signature`);
  }
  const headerLength = 20 + guidLength;
  if (fileSize < headerLength || start.length < headerLength) {
    throw invalidArchive(label, `truncated header: a GUID length of ${guidLength} needs a ${headerLength}-byte header, but the file has ${fileSize} bytes`);
  }
  const guidBytes = start.subarray(4, 4 + guidLength);
  if (guidBytes.some((b) => b < 0x20 || b === 0x7f)) {
    throw notPvf('the GUID field of the classic header holds control bytes (a classic archive stores a GUID text there)');
  }
  const fileVersion = view.getInt32(4 + guidLength, true);
  const treeLength = view.getInt32(8 + guidLength, true);
  const treeCrc = view.getUint32(12 + guidLength, true);
  const fileCount = view.getInt32(16 + guidLength, true);
  const treeOffset = headerLength;
  if (treeLength < 0 || treeLength % 4 !== 0) {
    throw invalidArchive(label, `header field treeLength is ${treeLength}, not a non-negative multiple of 4`, { treeLength });
  }
  if (treeLength > fileSize - treeOffset) {
    throw invalidArchive(label, `truncated: the file tree (${treeLength} bytes at offset ${treeOffset}) runs past the end of the file (${fileSize} bytes)`, { treeLength, fileSize });
  }
  if (fileCount < 0) throw invalidArchive(label, `header field fileCount is negative (${fileCount})`, { fileCount });
  if (fileCount === 0 && treeLength !== 0) {
    throw invalidArchive(label, `the header declares 0 files but a file tree of ${treeLength} bytes`, { fileCount, treeLength });
  }
  const maxEntries = Math.floor(treeLength / MIN_TREE_ENTRY_BYTES);
  if (fileCount > maxEntries) {
    throw invalidArchive(label, `absurd file count ${fileCount}: a file tree of ${treeLength} bytes holds at most ${maxEntries} entries`, { fileCount, treeLength });
  }
  if (fileCount === 0 && treeCrc !== 0) {
    throw invalidArchive(label, `tree CRC mismatch: an empty archive has tree CRC 0x00000000, the header says ${hex32(treeCrc)}`, { treeCrc });
  }
  return {
    guidLength,
    guid: Buffer.from(guidBytes).toString('latin1'),
    fileVersion,
    treeLength,
    treeCrc,
    fileCount,
    treeOffset,
    dataBase: treeOffset + treeLength,
  };
}
