/**
 * The worked example of pvf-classic-format §7: every field and checksum of example.pvf, its texts, and
 * the writer reproducing it byte for byte; §7.3's script vector; the primitive vectors of §2.2.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openClassicArchive, openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { blockLength, crc32, decryptBlock, encryptBlock, nameHash } from '../../../runtime/classic/crypto.js';
import { formatScriptFloat, float32Bits } from '../../../runtime/script/script-float.js';
import { entryNameBytes } from '../../../runtime/classic/tree.js';
import { compileScriptText, StringTableBuilder, writeClassicArchive } from '../../support/write-classic-archive.js';
import { EXAMPLE_OPTIONS, EXAMPLE_PVF, EXAMPLE_SCRIPTS, EXAMPLE_SHA256 } from './helpers.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** §7.2's base64 of the 300 bytes. */
const EXAMPLE_BASE64 =
  'JAAAADAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAEAAACYAAAAJZ7sNgQAAAC71DDnNA1Lt6nVnKutUtFsqQWQq7QOS7dJiE4TNA5Lt2wnsdb0C0u3blcX6i9SEC4o0wDub1NR63+XUCo31VeqBQ5L97V/DJcWDkt39+8bXSgOS3cvkxct7BcWLyxV0jx0lJC7GA5LyvTHQbMRDkti9KuxsygOC+5vU1Hrf5dQaujSliwolwDudJNOtwPOmmH0BFq3NA5LtwiqA3fUeg5A1Va6wBRWugDlIICq5SSAqmUngKolJoCqZSiAqiUqgKo+t9vyuHhXfjO6nHM8uNyyuHhXdi66nDOleNy3VucMq1fLeGoWy3iqFkp4qlZLuKpWy3iq';

/** §7.2's table, in tree (hash) order. */
const TREE = [
  { name: 'n_string.lst', hash: 0x3d41ef6a, dataLen: 2, blockLen: 4, dataCrc: 0xf6901619, dataOffset: 0 },
  { name: 'equipment/equipment.lst', hash: 0x6187e8a5, dataLen: 12, blockLen: 12, dataCrc: 0x811dc6c5, dataOffset: 4 },
  { name: 'stringtable.bin', hash: 0xa943878b, dataLen: 51, blockLen: 52, dataCrc: 0x2b27b1f4, dataOffset: 16 },
  { name: 'equipment/sword.equ', hash: 0xea979754, dataLen: 22, blockLen: 24, dataCrc: 0x2bdf5b47, dataOffset: 68 },
];

/** §7.1's payloads. */
const PAYLOADS: Record<string, string> = {
  'equipment/sword.equ': 'b0d0 0500000000 0701000000 0502000000 0203000000',
  'equipment/equipment.lst': 'b0d0 0201000000 0703000000',
  'n_string.lst': 'b0d0',
  'stringtable.bin':
    '04000000 14000000 1a000000 1f000000 26000000 2f000000 5b6e616d655d 53776f7264 5b67726164655d 73776f72642e657175',
};

/** §7.1's parser-style texts, as the canonical text (`\n`). */
const TEXTS: Record<string, string> = {
  'equipment/sword.equ': '#PVF_File\n\n[name]\n\t`Sword`\n\n[grade]\n\t3\n',
  'equipment/equipment.lst': '#PVF_File\n\n1\n`sword.equ`',
  'n_string.lst': '#PVF_File\n',
};

const hex = (spaced: string) => spaced.replaceAll(' ', '');

describe('§2.2 primitives', () => {
  it('name hashes', () => {
    const hash = (s: string) => nameHash(Buffer.from(s, 'latin1'));
    expect(hash('stringtable.bin')).toBe(0xa943878b);
    expect(hash('n_string.lst')).toBe(0x3d41ef6a);
    expect(hash('equipment/sword.equ')).toBe(0xea979754);
    expect(hash('equipment/equipment.lst')).toBe(0x6187e8a5);
  });

  it('seeded CRC-32: zlib semantics, the seed for an empty input', () => {
    expect(crc32(new Uint8Array(0), 0x1234)).toBe(0x1234);
    expect(crc32(Buffer.from('123456789'), 0)).toBe(0xcbf43926);
  });

  it('block cipher: B0 D0 05 00 with crc 0x2BDF5B47 encrypts to 56 E7 0C AB and back', () => {
    const block = Uint8Array.from([0xb0, 0xd0, 0x05, 0x00]);
    encryptBlock(block, 0x2bdf5b47);
    expect(Buffer.from(block).toString('hex')).toBe('56e70cab');
    decryptBlock(block, 0x2bdf5b47);
    expect(Buffer.from(block).toString('hex')).toBe('b0d00500');
  });

  it('float32 bit patterns of §7.3', () => {
    expect(float32Bits(1.5) >>> 0).toBe(0x3fc00000);
    expect(float32Bits(0.1) >>> 0).toBe(0x3dcccccd);
    expect(float32Bits(-2.25) >>> 0).toBe(0xc0100000);
    expect(formatScriptFloat(0x3dcccccd)).toBe('0.1');
  });
});

describe('§7.2 example.pvf', () => {
  const bytes = readFileSync(EXAMPLE_PVF);

  it('is the 300-byte vector of the spec (SHA-256 and base64)', () => {
    expect(bytes.length).toBe(300);
    expect(sha256(bytes)).toBe(EXAMPLE_SHA256);
    expect(bytes.toString('base64')).toBe(EXAMPLE_BASE64);
  });

  it('header: GUID, version, tree length and CRC, count, data base', async () => {
    const archive = await openClassicArchive(EXAMPLE_PVF);
    try {
      expect(archive.header).toEqual({
        guidLength: 36,
        guid: '00000000-0000-0000-0000-000000000000',
        fileVersion: 1,
        treeLength: 152,
        treeCrc: 0x36ec9e25,
        fileCount: 4,
        treeOffset: 56,
        dataBase: 208,
      });
      expect(archive.size).toBe(300);
      expect(archive.fileCount).toBe(4);
    } finally {
      await archive.close();
    }
  });

  it('tree: every entry, hash, length, CRC and offset; the plaintext tree and its CRC', () => {
    const archive = openClassicArchiveBytes(bytes, 'example.pvf');
    const { tree } = archive;
    expect(tree.count).toBe(4);
    TREE.forEach((expected, i) => {
      expect(Buffer.from(entryNameBytes(tree, i)).toString('latin1')).toBe(expected.name);
      expect(tree.nameHash[i]).toBe(expected.hash);
      expect(nameHash(entryNameBytes(tree, i))).toBe(expected.hash);
      expect(tree.dataLength[i]).toBe(expected.dataLen);
      expect(blockLength(tree.dataLength[i] as number)).toBe(expected.blockLen);
      expect(tree.dataCrc[i]).toBe(expected.dataCrc);
      expect(tree.dataOffset[i]).toBe(expected.dataOffset);
    });
    const plain = Buffer.from(tree.plainTree);
    expect(plain.length).toBe(152);
    expect(crc32(plain, 4)).toBe(0x36ec9e25);
    // 149 bytes of entries, then 3 zero bytes.
    expect(plain.subarray(149).toString('hex')).toBe('000000');
    expect(plain.subarray(0, 32).toString('hex')).toBe(hex('6aef413d 0c000000') + Buffer.from('n_string.lst').toString('hex') + hex('02000000 191690f6 00000000'));
    // Data area: 92 bytes from byte 208, nothing after it.
    expect(bytes.length - archive.header.dataBase).toBe(92);
  });

  it('every file reads to its §7.1 payload and its CRC checks (padded, seeded with the name hash)', () => {
    const archive = openClassicArchiveBytes(bytes, 'example.pvf');
    for (const expected of TREE) {
      const data = archive.readFile(expected.name);
      expect(Buffer.from(data).toString('hex'), expected.name).toBe(hex(PAYLOADS[expected.name] as string));
      const padded = new Uint8Array(expected.blockLen);
      padded.set(data);
      expect(crc32(padded, expected.hash)).toBe(expected.dataCrc);
    }
  });

  it('stringtable.bin holds [name], Sword, [grade], sword.equ', () => {
    const archive = openClassicArchiveBytes(bytes, 'example.pvf');
    const result = archive.stringTable();
    if (!('table' in result)) throw new Error('no string table');
    expect(Array.from({ length: result.table.count }, (_, i) => result.table.get(i))).toEqual(['[name]', 'Sword', '[grade]', 'sword.equ']);
  });

  it('decompiles to exactly the texts of §7.1 (parser style, `\\n` line ends)', () => {
    const archive = openClassicArchiveBytes(bytes, 'example.pvf');
    for (const [path, text] of Object.entries(TEXTS)) {
      const read = archive.readText(path);
      expect(read.text, path).toBe(text);
      expect(read.isScript).toBe(true);
      expect(read.source).toBe('script');
      expect(read.textRevision).toBe(createHash('sha256').update(text).digest('hex').slice(0, 32));
    }
    const table = archive.readText('stringtable.bin');
    expect(table.isScript).toBe(false);
    expect(table.source).toBe('text');
  });

  it('lists the tree as folders and files, case-insensitively', () => {
    const archive = openClassicArchiveBytes(bytes, 'example.pvf');
    expect(archive.list('').map((n) => `${n.kind}:${n.path}`)).toEqual(['directory:equipment', 'file:n_string.lst', 'file:stringtable.bin']);
    expect(archive.list('EQUIPMENT').map((n) => `${n.path}:${n.kind === 'file' ? n.size : ''}`)).toEqual(['equipment/equipment.lst:12', 'equipment/sword.equ:22']);
    expect(archive.resolve('Equipment\\Sword.EQU')?.path).toBe('equipment/sword.equ');
  });

  it('the writer reproduces it byte for byte from its three scripts', () => {
    const written = writeClassicArchive({ scripts: EXAMPLE_SCRIPTS, ...EXAMPLE_OPTIONS });
    expect(sha256(written)).toBe(EXAMPLE_SHA256);
    expect(Buffer.compare(written, bytes)).toBe(0);
  });

  it('the writer reproduces it from the canonical texts too, and ignores a trailer', () => {
    const canonical = EXAMPLE_SCRIPTS.map(([path]) => [path, TEXTS[path] as string] as [string, string]);
    expect(sha256(writeClassicArchive({ scripts: canonical, ...EXAMPLE_OPTIONS }))).toBe(EXAMPLE_SHA256);
    const withTrailer = writeClassicArchive({ scripts: canonical, ...EXAMPLE_OPTIONS, trailer: true });
    expect(withTrailer.length).toBe(341);
    expect(sha256(withTrailer.subarray(0, 300))).toBe(EXAMPLE_SHA256);
    const archive = openClassicArchiveBytes(withTrailer, 'trailer.pvf');
    expect(archive.readText('equipment/sword.equ').text).toBe(TEXTS['equipment/sword.equ']);
  });
});

describe('§7.3 script vector: links, floats, negative ints, commands', () => {
  const TEXT = '#PVF_File\r\n\r\n[name]\r\n\t<0::name_1`Sword`>\r\n\r\n[rate]\r\n\t1.5\t-2\r\n\r\n[command]\r\n\t{6=`(RIGHT)`}\r\n\t{8=`,`}\r\n[/command]\r\n';
  const BYTES =
    'B0 D0 05 00 00 00 00 09 00 00 00 00 0A 01 00 00 00 05 02 00 00 00 04 00 00 C0 3F 02 FE FF FF FF 05 03 00 00 00 06 04 00 00 00 08 05 00 00 00 05 06 00 00 00';
  /** pvfUtility's output without the stray line after the link, `\n` line ends (README "Canonical script text"). */
  const CANONICAL = '#PVF_File\n\n[name]\n\t<0::name_1`Sword`>\n\n[rate]\n\t1.5\t-2\n\n[command]\n\t{6=`(RIGHT)`}\n\t{8=`,`}\n[/command]\n';

  it('compiles to the 52 bytes of the spec with the strings in first-use order', () => {
    const table = new StringTableBuilder();
    const bytes = compileScriptText(TEXT, table);
    expect(bytes.length).toBe(52);
    expect(bytes.toString('hex')).toBe(BYTES.replaceAll(' ', '').toLowerCase());
    expect(table.strings).toEqual(['[name]', 'name_1', '[rate]', '[command]', '(RIGHT)', ',', '[/command]']);
  });

  const archiveWith = (str: string) =>
    openClassicArchiveBytes(
      writeClassicArchive({
        scripts: [
          ['skill/vector.skl', TEXT],
          ['n_string.lst', '#PVF_File\r\n\r\n0\r\n`Strings/Vector.kor.str`'],
        ],
        files: { 'strings/vector.kor.str': str },
      }),
      'vector.pvf',
    );

  it('reads back as the same bytes and decompiles to the canonical text with the link resolved', () => {
    const archive = archiveWith('// comment\r\nname_1>Sword\r\n');
    expect(Buffer.from(archive.readFile('skill/vector.skl')).toString('hex')).toBe(BYTES.replaceAll(' ', '').toLowerCase());
    const read = archive.readText('skill/vector.skl');
    expect(read.text).toBe(CANONICAL);
    expect(read.missingLinks).toEqual([]);
    // The canonical text compiles to the same bytes again.
    expect(compileScriptText(read.text, new StringTableBuilder()).toString('hex')).toBe(BYTES.replaceAll(' ', '').toLowerCase());
  });

  it('a missing key is reported and printed with an empty text, not guessed', () => {
    const archive = archiveWith('name_2>Other\r\n');
    const read = archive.readText('skill/vector.skl');
    expect(read.text).toBe(CANONICAL.replace('`Sword`', '``'));
    expect(read.missingLinks).toEqual([{ table: 0, key: 'name_1', reason: 'strings/vector.kor.str (table 0) has no key "name_1"' }]);
  });
});
