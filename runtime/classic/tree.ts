/**
 * The file tree (pvf-classic-format §2.3): decrypted with the tree CRC, verified against it (seeded with
 * the file count), then split into entries. Every entry's name must lie inside the tree and its data
 * block inside the file; anything else is INVALID_ARCHIVE naming the entry.
 */
import { hex32, invalidArchive } from '../script/archive-error.js';
import { blockLength, crc32, decryptBlock } from './crypto.js';
import type { ClassicHeader } from './header.js';
import { decodeName } from './names.js';

/** The tree's entries as parallel arrays, in stored order. */
export interface TreeEntries {
  count: number;
  nameHash: Uint32Array;
  dataLength: Int32Array;
  dataCrc: Uint32Array;
  /** Relative to the data area. */
  dataOffset: Int32Array;
  /** Name bytes of entry i: plainTree[nameStart[i] .. nameStart[i] + nameLength[i]). */
  nameStart: Int32Array;
  nameLength: Int32Array;
  /** The decrypted tree (holds the raw name bytes). */
  plainTree: Uint8Array;
}

/** Raw stored name bytes of entry i. */
export function entryNameBytes(tree: TreeEntries, i: number): Uint8Array {
  const start = tree.nameStart[i] as number;
  return tree.plainTree.subarray(start, start + (tree.nameLength[i] as number));
}

/**
 * Decrypts `encrypted` (the header's treeLength bytes; decrypted in place) and decodes the entries.
 * `fileSize` bounds the data blocks.
 */
export function decodeTree(encrypted: Uint8Array, header: ClassicHeader, fileSize: number, label: string): TreeEntries {
  const tree = encrypted;
  if (tree.length !== header.treeLength) {
    throw invalidArchive(label, `truncated: the file tree should be ${header.treeLength} bytes but only ${tree.length} could be read`);
  }
  decryptBlock(tree, header.treeCrc);
  const actual = crc32(tree, header.fileCount);
  if (actual !== header.treeCrc) {
    throw invalidArchive(label, `tree CRC mismatch: the header says ${hex32(header.treeCrc)}, the decrypted file tree gives ${hex32(actual)} (the tree or the header is damaged)`, {
      expected: header.treeCrc,
      actual,
    });
  }
  const count = header.fileCount;
  const entries: TreeEntries = {
    count,
    nameHash: new Uint32Array(count),
    dataLength: new Int32Array(count),
    dataCrc: new Uint32Array(count),
    dataOffset: new Int32Array(count),
    nameStart: new Int32Array(count),
    nameLength: new Int32Array(count),
    plainTree: tree,
  };
  const view = new DataView(tree.buffer, tree.byteOffset, tree.byteLength);
  let pos = 0;
  const garbage = (i: number, why: string) => invalidArchive(label, `the file tree decodes to garbage at entry ${i} of ${count} (tree byte ${pos}): ${why}`, { entry: i });
  for (let i = 0; i < count; i++) {
    if (pos + 8 > tree.length) throw garbage(i, 'the entry starts past the end of the tree');
    const hash = view.getUint32(pos, true);
    const nameLength = view.getInt32(pos + 4, true);
    if (nameLength <= 0) throw garbage(i, `name length ${nameLength}`);
    if (nameLength > tree.length - pos - 20) throw garbage(i, `name length ${nameLength} runs past the end of the tree`);
    const nameStart = pos + 8;
    const fields = nameStart + nameLength;
    const dataLength = view.getInt32(fields, true);
    const dataCrc = view.getUint32(fields + 4, true);
    const dataOffset = view.getInt32(fields + 8, true);
    if (dataLength < 0) throw garbage(i, `file ${JSON.stringify(nameAt(tree, nameStart, nameLength))} has a negative length (${dataLength})`);
    if (dataOffset < 0) throw garbage(i, `file ${JSON.stringify(nameAt(tree, nameStart, nameLength))} has a negative data offset (${dataOffset})`);
    const end = header.dataBase + dataOffset + blockLength(dataLength);
    if (end > fileSize) {
      const name = nameAt(tree, nameStart, nameLength);
      throw invalidArchive(
        label,
        `truncated: file ${JSON.stringify(name)} (tree entry ${i}) is stored at bytes ${header.dataBase + dataOffset}..${end} but the archive has only ${fileSize} bytes`,
        { entry: i, path: name, end, fileSize },
      );
    }
    entries.nameHash[i] = hash;
    entries.nameStart[i] = nameStart;
    entries.nameLength[i] = nameLength;
    entries.dataLength[i] = dataLength;
    entries.dataCrc[i] = dataCrc;
    entries.dataOffset[i] = dataOffset;
    pos = fields + 12;
  }
  return entries;
}

/** A stored name for an error message (decoded only when an entry is refused). */
function nameAt(tree: Uint8Array, start: number, length: number): string {
  return decodeName(tree.subarray(start, start + length));
}
