/**
 * Fuzzing (seeded, reproducible): thousands of random truncations, bit flips and field overwrites of
 * valid archives. Every case ends in a typed PvfdocError or a correct read, within a bounded time.
 *
 * - Raw mutations (truncations, bit flips, int32 overwrites of the stored bytes): when the archive still
 *   opens, its listing must equal the original's, and every file must read exactly as before or fail
 *   with a PvfdocError (the CRCs make any other outcome a bug).
 * - Consistent mutations (a field of the decrypted tree or a byte of a decrypted file changed, then
 *   every CRC recomputed and re-encrypted): the archive is "valid" again, so reads may differ, but each
 *   must still end in a result or a PvfdocError.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openClassicArchiveBytes, type ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import { blockLength, crc32, decryptBlock, encryptBlock } from '../../../runtime/classic/crypto.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { seededRandom } from '../../support/random.js';
import { openOrRefused, readOrRefused, walkArchive } from '../../support/walk-archive.js';
import { EXAMPLE_PVF, sampleScripts, snapshotArchive, type ArchiveSnapshot } from './helpers.js';

const VECTOR_73 = '#PVF_File\r\n\r\n[name]\r\n\t<0::name_1`Sword`>\r\n\r\n[rate]\r\n\t1.5\t-2\t0.1\r\n\r\n[command]\r\n\t{6=`(RIGHT)`}\r\n\t{8=`,`}\r\n[/command]\r\n';

function realisticArchive(encoding: string): Buffer {
  return writeClassicArchive({
    scripts: [...sampleScripts().filter(([name]) => name !== 'n_string.lst'), ['skill/vector.skl', VECTOR_73], ['n_string.lst', '#PVF_File\n0\t`strings/vector.kor.str`\n1\t`strings/none.str`']],
    files: {
      'strings/vector.kor.str': '// links\r\nname_1>剑 Sword\r\n',
      'sprite/icon.img': Uint8Array.from([0x4e, 0x65, 0x6f, 0x00, 1, 2, 3, 0xff, 0x00, 7]),
      'empty.txt': '',
    },
    encoding,
    trailer: true,
  });
}

const BASES: { name: string; bytes: Buffer }[] = [
  { name: 'example.pvf', bytes: readFileSync(EXAMPLE_PVF) },
  { name: 'samples-utf8.pvf', bytes: realisticArchive('utf-8') },
  { name: 'samples-cp936.pvf', bytes: realisticArchive('cp936') },
];

const INTERESTING = [0, 1, 2, 3, 4, 5, 20, 36, 255, 256, 0xffff, -1, -2, -4, 0x7fffffff, -0x80000000, 0x7ffffffc, 0x40000000];

interface Outcome {
  opened: boolean;
  errors: number;
  reads: number;
}

/** Opens and reads everything; returns what happened. Non-PvfdocErrors fail the test. */
function exercise(bytes: Uint8Array, label: string, reference: ArchiveSnapshot | null, referenceEncoding: string): Outcome {
  const archive: ClassicArchive | null = openOrRefused(() => openClassicArchiveBytes(bytes, label), label);
  if (archive === null) return { opened: false, errors: 1, reads: 0 };
  let errors = 0;
  let reads = 0;
  const listings = walkArchive(archive, (file) => {
    const read = () => {
      const data = Buffer.from(archive.readFile(file)).toString('hex');
      const text = archive.readText(file);
      reads++;
      const expected = reference?.files[file];
      if (expected) {
        // With stringtable.bin damaged the encoding falls back to the default: the bytes must still match.
        if (archive.encoding.encoding === referenceEncoding) expect([data, text.text, text.isScript], `${label}: ${file}`).toEqual(expected);
        else expect(data, `${label}: ${file}`).toBe(expected[0]);
      }
    };
    if (!readOrRefused(read, label, file)) errors++;
  });
  if (reference) expect(listings, label).toEqual(reference.listings);
  archive.warnings();
  return { opened: true, errors, reads };
}

/** Decrypts the tree and every block, applies `change`, recomputes every CRC and re-encrypts. */
function consistentMutation(bytes: Buffer, random: () => number): Buffer {
  const out = Buffer.from(bytes);
  const g = out.readInt32LE(0);
  const treeOffset = 20 + g;
  const treeLength = out.readInt32LE(8 + g);
  const count = out.readInt32LE(16 + g);
  const tree = Buffer.from(out.subarray(treeOffset, treeOffset + treeLength));
  decryptBlock(tree, out.readUInt32LE(12 + g));
  const dataBase = treeOffset + treeLength;
  // Locate entries.
  const entries: { at: number; nameLength: number }[] = [];
  for (let pos = 0, i = 0; i < count; i++) {
    const nameLength = tree.readInt32LE(pos + 4);
    entries.push({ at: pos, nameLength });
    pos += 20 + nameLength;
  }
  const entry = entries[Math.floor(random() * entries.length)] as { at: number; nameLength: number };
  const fields = entry.at + 8 + entry.nameLength;
  if (random() < 0.5) {
    // A tree field: hash, name length, data length, CRC or offset.
    const which = [entry.at, entry.at + 4, fields, fields + 4, fields + 8][Math.floor(random() * 5)] as number;
    tree.writeInt32LE(random() < 0.5 ? (INTERESTING[Math.floor(random() * INTERESTING.length)] as number) : Math.floor(random() * 0x100000000) | 0, which);
  } else {
    // A byte of a file's plaintext (token types, string indexes, stringtable offsets...), CRC fixed up.
    const length = tree.readInt32LE(fields);
    if (length > 0) {
      const hash = tree.readUInt32LE(entry.at);
      const crc = tree.readUInt32LE(fields + 4);
      const start = dataBase + tree.readInt32LE(fields + 8);
      const block = Buffer.from(out.subarray(start, start + blockLength(length)));
      decryptBlock(block, crc);
      block.fill(0, length);
      const at = Math.floor(random() * length);
      block[at] = random() < 0.5 ? Math.floor(random() * 256) : (block[at] as number) ^ (1 << Math.floor(random() * 8));
      const newCrc = crc32(block, hash);
      encryptBlock(block, newCrc);
      block.copy(out, start);
      tree.writeUInt32LE(newCrc, fields + 4);
    }
  }
  const treeCrc = crc32(tree, count);
  encryptBlock(tree, treeCrc);
  tree.copy(out, treeOffset);
  out.writeUInt32LE(treeCrc, 12 + g);
  return out;
}

describe('fuzz: mutated archives end in a typed error or a correct read', () => {
  for (const base of BASES) {
    it(`${base.name}: 1500 raw mutations and 500 consistent ones`, () => {
      const original = openClassicArchiveBytes(base.bytes, base.name);
      const reference = snapshotArchive(original);
      const random = seededRandom(0x5eed ^ base.bytes.length);
      const int = (n: number) => Math.floor(random() * n);
      const totals = { opened: 0, failedOpen: 0, readErrors: 0, reads: 0 };
      let slowest = 0;
      const started = performance.now();
      for (let i = 0; i < 2000; i++) {
        let bytes: Buffer;
        let kind: string;
        const r = i < 1500 ? i % 3 : 3;
        if (r === 0) {
          kind = 'truncate';
          bytes = base.bytes.subarray(0, int(base.bytes.length));
        } else if (r === 1) {
          kind = 'flip';
          bytes = Buffer.from(base.bytes);
          const flips = 1 + int(8);
          for (let f = 0; f < flips; f++) {
            const at = int(bytes.length);
            bytes[at] = (bytes[at] as number) ^ (1 << int(8));
          }
        } else if (r === 2) {
          kind = 'overwrite';
          bytes = Buffer.from(base.bytes);
          const g = 36;
          const headerFields = [0, 4 + g, 8 + g, 12 + g, 16 + g];
          const at = random() < 0.5 ? (headerFields[int(headerFields.length)] as number) : int(bytes.length - 3);
          const values = [...INTERESTING, bytes.length, bytes.length - 56, bytes.length + 4];
          bytes.writeInt32LE(random() < 0.7 ? (values[int(values.length)] as number) | 0 : int(0x100000000) | 0, at);
        } else {
          kind = 'consistent';
          bytes = consistentMutation(base.bytes, random);
        }
        const t0 = performance.now();
        const outcome = exercise(bytes, `${base.name}#${i}-${kind}`, kind === 'consistent' ? null : reference, original.encoding.encoding);
        slowest = Math.max(slowest, performance.now() - t0);
        if (outcome.opened) totals.opened++;
        else totals.failedOpen++;
        totals.readErrors += outcome.opened ? outcome.errors : 0;
        totals.reads += outcome.reads;
      }
      const elapsed = performance.now() - started;
      if (process.env.FUZZ_REPORT) console.log(base.name, JSON.stringify(totals), `slowest ${slowest.toFixed(1)} ms`, `total ${elapsed.toFixed(0)} ms`);
      // Every path was exercised: some archives opened, some did not, some reads failed.
      expect(totals.failedOpen).toBeGreaterThan(100);
      expect(totals.opened).toBeGreaterThan(100);
      expect(totals.readErrors).toBeGreaterThan(10);
      expect(process.memoryUsage().rss).toBeLessThan(2 * 1024 * 1024 * 1024);
    });
  }
});
