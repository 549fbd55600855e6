/**
 * Bad input (issue "Bad input"): every case ends in a typed PvfdocError whose message names the archive
 * file and the problem; never a crash, a hang or a huge allocation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openClassicArchive, openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { blockLength, crc32, encryptBlock } from '../../../runtime/classic/crypto.js';
import { NKPI_MESSAGE } from '../../../runtime/classic/header.js';
import { buildClassicArchive, writeClassicArchive } from '../../support/write-classic-archive.js';
import { caught, caughtAsync, EXAMPLE_PVF, makeTempDir, NKPI_PVF, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

const EXAMPLE = readFileSync(EXAMPLE_PVF);
const LABEL = 'bad.pvf';

/** A copy of the example with `patch` applied. */
function patched(patch: (bytes: Buffer) => void, from: Buffer = EXAMPLE): Buffer {
  const bytes = Buffer.from(from);
  patch(bytes);
  return bytes;
}

/** The INVALID_ARCHIVE error of opening `bytes`; checks the message names the archive. */
function openError(bytes: Uint8Array, code = 'INVALID_ARCHIVE') {
  const error = caught(() => openClassicArchiveBytes(bytes, LABEL));
  expect(error.code).toBe(code);
  expect(error.message.startsWith(`${LABEL}: `)).toBe(true);
  expect(error.data?.archive).toBe(LABEL);
  return error;
}

/** An archive with a hand-made plaintext tree (valid tree CRC) and data area. */
function rawArchive(tree: Buffer, fileCount: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const padded = Buffer.alloc(blockLength(tree.length));
  tree.copy(padded);
  const treeCrc = crc32(padded, fileCount);
  encryptBlock(padded, treeCrc);
  const guid = Buffer.from('fa08bf71-4395-6a4b-a3e3-2617c9fee116');
  const header = Buffer.alloc(20 + guid.length);
  header.writeInt32LE(guid.length, 0);
  guid.copy(header, 4);
  header.writeInt32LE(1, 40);
  header.writeInt32LE(padded.length, 44);
  header.writeUInt32LE(treeCrc, 48);
  header.writeInt32LE(fileCount, 52);
  return Buffer.concat([header, padded, data]);
}

function treeEntry(name: string, dataLength: number, dataOffset: number, nameLength = name.length): Buffer {
  const entry = Buffer.alloc(20 + name.length);
  entry.writeUInt32LE(0x12345678, 0);
  entry.writeInt32LE(nameLength, 4);
  entry.write(name, 8, 'latin1');
  entry.writeInt32LE(dataLength, 8 + name.length);
  entry.writeUInt32LE(0, 12 + name.length);
  entry.writeInt32LE(dataOffset, 16 + name.length);
  return entry;
}

/** An archive with one script of exact token bytes and the given string table entries. */
function scriptArchive(records: [number, number][], strings: string[] | null = ['[name]']): Buffer {
  const script = Buffer.alloc(2 + 5 * records.length);
  script[0] = 0xb0;
  script[1] = 0xd0;
  records.forEach(([type, value], i) => {
    script[2 + 5 * i] = type;
    script.writeInt32LE(value, 3 + 5 * i);
  });
  const files: { path: string; data: Uint8Array }[] = [{ path: 'test/bad.equ', data: script }];
  if (strings) {
    const table = writeClassicArchive({ scripts: [], strings, stringTable: true });
    files.push({ path: 'stringtable.bin', data: openClassicArchiveBytes(table, 't').readFile('stringtable.bin') });
  }
  return buildClassicArchive(files);
}

describe('not a classic PVF', () => {
  it('an empty or tiny file', () => {
    expect(openError(Buffer.alloc(0)).message).toContain('not a PVF archive: the file is 0 bytes long');
    expect(openError(Buffer.from([0x24, 0, 0])).message).toContain('not a PVF archive');
  });

  it('a text file, a PNG, zeros', () => {
    expect(openError(Buffer.from('hello, this is a text file and not a PVF archive at all\n')).message).toContain('not a PVF archive');
    expect(openError(Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex')).message).toContain('not a PVF archive');
    expect(openError(Buffer.alloc(4096)).message).toContain('GUID length 0');
  });

  it('a GUID length out of range or a GUID with control bytes', () => {
    expect(openError(patched((b) => b.writeInt32LE(5000, 0))).message).toContain('GUID length 5000');
    expect(openError(patched((b) => b.writeInt32LE(-36, 0))).message).toContain('not a PVF archive');
    expect(openError(patched((b) => (b[10] = 0x01))).message).toContain('GUID field');
  });

  it('an nkpi archive: says so and names the family', async () => {
    const error = openError(readFileSync(NKPI_PVF));
    expect(error.message).toContain(NKPI_MESSAGE);
    expect(error.message).toContain('this is an nkpi-family archive (pvfine 90US/90CN/110US), not a classic pvfUtility one');
    expect(error.data?.family).toBe('nkpi');
    const fromFile = await caughtAsync(() => openClassicArchive(NKPI_PVF));
    expect(fromFile.code).toBe('INVALID_ARCHIVE');
    expect(fromFile.message.startsWith(`${NKPI_PVF}: `)).toBe(true);
    expect(fromFile.message).toContain(NKPI_MESSAGE);
  });
});

describe('damaged header and tree', () => {
  it('a truncated header', () => {
    for (const length of [4, 20, 40, 55]) expect(openError(EXAMPLE.subarray(0, length)).message, String(length)).toContain('truncated header');
  });

  it('a tree running past the end of the file', () => {
    expect(openError(EXAMPLE.subarray(0, 100)).message).toContain('truncated: the file tree (152 bytes at offset 56) runs past the end of the file (100 bytes)');
    expect(openError(patched((b) => b.writeInt32LE(0x7ffffffc, 44))).message).toContain('runs past the end of the file');
    expect(openError(patched((b) => b.writeInt32LE(150, 44))).message).toContain('not a non-negative multiple of 4');
    expect(openError(patched((b) => b.writeInt32LE(-4, 44))).message).toContain('not a non-negative multiple of 4');
  });

  it('zero, negative and absurd file counts', () => {
    expect(openError(patched((b) => b.writeInt32LE(0, 52))).message).toContain('declares 0 files but a file tree of 152 bytes');
    expect(openError(patched((b) => b.writeInt32LE(-1, 52))).message).toContain('fileCount is negative');
    expect(openError(patched((b) => b.writeInt32LE(0x7fffffff, 52))).message).toContain('absurd file count 2147483647: a file tree of 152 bytes holds at most 7 entries');
    expect(openError(patched((b) => b.writeInt32LE(8, 52))).message).toContain('absurd file count 8');
    // A plausible count that is wrong fails the tree CRC (the count seeds it).
    expect(openError(patched((b) => b.writeInt32LE(5, 52))).message).toContain('tree CRC mismatch');
  });

  it('a tree CRC mismatch: damaged tree bytes or header CRC', () => {
    const error = openError(patched((b) => (b[60] = (b[60] as number) ^ 0x10)));
    expect(error.message).toContain('tree CRC mismatch: the header says 0x36EC9E25');
    expect(openError(patched((b) => b.writeUInt32LE(0x36ec9e26, 48))).message).toContain('tree CRC mismatch');
    // The zero padding at the end of the tree is covered too.
    expect(openError(patched((b) => (b[207] = (b[207] as number) ^ 1))).message).toContain('tree CRC mismatch');
  });

  it('a tree that decodes to garbage (with a valid tree CRC)', () => {
    expect(openError(rawArchive(treeEntry('a.equ', 0, 0, 1_000_000), 1)).message).toContain('decodes to garbage at entry 0 of 1');
    expect(openError(rawArchive(treeEntry('a.equ', 0, 0, 0), 1)).message).toContain('name length 0');
    expect(openError(rawArchive(treeEntry('a.equ', -5, 0), 1)).message).toContain('negative length (-5)');
    expect(openError(rawArchive(treeEntry('a.equ', 4, -8), 1)).message).toContain('negative data offset (-8)');
    expect(openError(rawArchive(Buffer.concat([treeEntry('a.equ', 0, 0), Buffer.alloc(20)]), 2)).message).toContain('entry 1 of 2');
  });

  it('offsets or lengths past the end of the file', () => {
    const truncated = openError(EXAMPLE.subarray(0, 290));
    expect(truncated.message).toContain('truncated: file "equipment/sword.equ" (tree entry 3) is stored at bytes 276..300 but the archive has only 290 bytes');
    expect(truncated.data?.path).toBe('equipment/sword.equ');
    expect(openError(rawArchive(treeEntry('a.equ', 0x7fffffff, 0), 1)).message).toContain('truncated: file "a.equ"');
    expect(openError(rawArchive(treeEntry('a.equ', 4, 0x7ffffff0), 1)).message).toContain('truncated: file "a.equ"');
  });

  it('names that cannot be paths are left out and reported, not fatal', () => {
    const archive = openClassicArchiveBytes(rawArchive(Buffer.concat([treeEntry('../x.equ', 0, 0), treeEntry('a\u0001b', 0, 0), treeEntry('//', 0, 0)]), 3), LABEL);
    expect(archive.fileCount).toBe(0);
    expect(archive.warnings().join('\n')).toContain('".." segment');
    expect(archive.warnings().join('\n')).toContain('control characters');
  });
});

describe('damaged files inside a sound archive', () => {
  it('a file CRC mismatch names the file; other files still read', () => {
    const archive = openClassicArchiveBytes(
      patched((b) => (b[208 + 68 + 5] = (b[208 + 68 + 5] as number) ^ 0x40)),
      LABEL,
    );
    const error = caught(() => archive.readFile('equipment/sword.equ'));
    expect(error.code).toBe('INVALID_ARCHIVE');
    expect(error.message).toContain(`${LABEL}: equipment/sword.equ: file CRC mismatch: the tree says 0x2BDF5B47`);
    expect(error.data?.path).toBe('equipment/sword.equ');
    expect(caught(() => archive.readText('equipment/sword.equ')).message).toContain('file CRC mismatch');
    expect(archive.readText('equipment/equipment.lst').text).toBe('#PVF_File\n\n1\n`sword.equ`');
  });

  it('a string index out of range names the file, the token and the offset', () => {
    const archive = openClassicArchiveBytes(scriptArchive([[5, 0], [7, 99]]), LABEL);
    const error = caught(() => archive.readText('test/bad.equ'));
    expect(error.code).toBe('INVALID_ARCHIVE');
    expect(error.message).toContain(`${LABEL}: test/bad.equ: token 1 (type 7) at byte offset 7 refers to string 99, out of range: stringtable.bin has 1 strings`);
    expect(caught(() => openClassicArchiveBytes(scriptArchive([[7, -1]]), LABEL).readText('test/bad.equ')).message).toContain('refers to string -1');
  });

  it('a token type outside 2..10 names the file and the byte offset', () => {
    for (const type of [0, 1, 11, 255]) {
      const archive = openClassicArchiveBytes(scriptArchive([[2, 1], [type, 0]]), LABEL);
      const error = caught(() => archive.readText('test/bad.equ'));
      expect(error.code).toBe('INVALID_ARCHIVE');
      expect(error.message).toContain(`${LABEL}: test/bad.equ: token 1 at byte offset 7 has type ${type}, outside the classic token types 2..10`);
      expect(error.data?.offset).toBe(7);
      // The bytes are still readable.
      expect(archive.readFile('test/bad.equ').length).toBe(12);
    }
  });

  it('a missing stringtable.bin: scripts with strings fail, scripts without read', () => {
    expect(caught(() => openClassicArchiveBytes(scriptArchive([[5, 0]], null), LABEL).readText('test/bad.equ')).message).toContain(
      'refers to string 0, out of range: stringtable.bin is not in the archive',
    );
    expect(openClassicArchiveBytes(scriptArchive([[2, 5]], null), LABEL).readText('test/bad.equ').text).toBe('#PVF_File\n\n5');
  });

  it('a damaged stringtable.bin does not stop the open; scripts needing it fail with its error', () => {
    const script = Buffer.from('b0d0050000000002010000000703000000', 'hex');
    for (const table of [Buffer.from('ffffff7f', 'hex'), Buffer.from('0100000008000000ff000000', 'hex'), Buffer.from('01', 'hex')]) {
      const archive = openClassicArchiveBytes(buildClassicArchive([{ path: 'a.equ', data: script }, { path: 'stringtable.bin', data: table }]), LABEL);
      expect(archive.warnings().join('\n')).toContain('stringtable.bin');
      const error = caught(() => archive.readText('a.equ'));
      expect(error.code).toBe('INVALID_ARCHIVE');
      expect(error.message).toContain(`${LABEL}: stringtable.bin: `);
    }
  });

  it('a script built to expand (one long string repeated) is refused, not materialised', () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    const archive = openClassicArchiveBytes(
      writeClassicArchive({ scripts: [['big.equ', `[a]\n${Array.from({ length: 40 }, () => `\`${long}\``).join('\n')}`]], encoding: 'utf-8' }),
      LABEL,
    );
    expect(archive.size).toBeLessThan(3 * 1024 * 1024);
    const error = caught(() => archive.readText('big.equ'));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toBe(`${LABEL}: big.equ: its decompiled text exceeds ${64 * 1024 * 1024} characters`);
  });

  it('an unknown encoding name is INVALID_ARGUMENT', () => {
    const error = caught(() => openClassicArchiveBytes(EXAMPLE, LABEL, { encoding: 'klingon' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('unknown text encoding "klingon"');
  });
});

describe('files on disk', () => {
  it('a missing file or a folder is IO_ERROR naming it; the archive is opened read-only', async () => {
    const dir = makeTempDir();
    const missing = path.join(dir, 'missing.pvf');
    const error = await caughtAsync(() => openClassicArchive(missing));
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).toBe(`archive ${missing} does not exist`);
    mkdirSync(path.join(dir, 'folder.pvf'));
    expect((await caughtAsync(() => openClassicArchive(path.join(dir, 'folder.pvf')))).code).toBe('IO_ERROR');
    // A read-only file opens (the reader never asks for write access).
    const readOnly = path.join(dir, 'ro.pvf');
    writeFileSync(readOnly, EXAMPLE, { mode: 0o444 });
    const archive = await openClassicArchive(readOnly);
    expect(archive.readText('equipment/sword.equ').isScript).toBe(true);
    await archive.close();
    // Reads after close refuse instead of reading a reused descriptor.
    expect(caught(() => archive.readFile('equipment/sword.equ')).code).toBe('STALE_WORKSPACE');
  });
});
