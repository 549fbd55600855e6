/**
 * Bad input (issue 8): wrong keys, a corrupt header, a chunk that does not inflate to its stated size,
 * pool offsets out of range, a zip-bomb-sized chunk, a paged 110 archive without key files. Each is a
 * typed INVALID_ARCHIVE error whose message starts with the archive and names the problem — never a
 * crash, a hang or unbounded memory.
 */
import { describe, expect, it } from 'vitest';
import { NKPI_HEADER_BYTES } from '../../../runtime/nkpi/header.js';
import { ALTERNATE_KEYS, LCG_MAIN, STANDARD_KEYS, xorKeystream } from '../../../runtime/nkpi/keystream.js';
import { DEFAULT_MAX_CHUNK_BYTES, openNkpiArchiveBytes } from '../../../runtime/nkpi/nkpi-archive.js';
import { DEFAULT_MAX_POOL_BYTES, NAME_TABLE_PREFIX_BYTES, parseNameTable, poolLimitsFor } from '../../../runtime/nkpi/pools.js';
import { lockPages, NkpiArchiveBuilder, writeNkpiArchive } from '../../support/write-nkpi-archive.js';
import { caught, vectorBytes } from './helpers.js';
import { layoutOf, patchGrpi, patchHeader, patchTable } from './mutate.js';

const open = (bytes: Uint8Array, label = 'bad.pvf', options = {}) => openNkpiArchiveBytes(bytes, label, options);

/** Three files in three chunks (chunk 0 is checked at open; 1 and 2 only when read). */
function threeChunks(keys: 'standard' | 'alternate' = 'standard'): Buffer {
  return writeNkpiArchive({ keys, chunkBytes: 1, scripts: { 'a.equ': '[name]\n`a`', 'b.equ': '[name]\n`b`\n[grade]\n5', 'c/d.stk': '[name]\n`d`' } });
}

describe('not an nkpi archive, corrupt headers', () => {
  it('too short, or no known key gives the signature', () => {
    expect(caught(() => open(new Uint8Array(20))).message).toBe('bad.pvf: the file is 20 bytes long, shorter than the 48-byte nkpi header');
    const error = caught(() => open(new Uint8Array(100)));
    expect(error.code).toBe('INVALID_ARCHIVE');
    expect(error.message).toBe('bad.pvf: not an nkpi archive: its first 4 bytes (0x00000000) do not decrypt to the nkpi signature with the standard (HeaD) or alternate (hEAd) keys');
    expect(error.data).toMatchObject({ archive: 'bad.pvf', family: 'unknown' });
  });

  it('a negative or oversized size field, a truncated file, a wrong alternate size', () => {
    const negative = patchHeader(vectorBytes(), (h) => h.setInt32(40, -36, true));
    expect(caught(() => open(negative)).message).toBe('bad.pvf: corrupt header: it decrypts to the nkpi signature with the standard keys, but header field hashTableSize is -36, negative');
    const truncated = vectorBytes().subarray(0, 200);
    expect(caught(() => open(truncated)).message).toBe(
      'bad.pvf: corrupt header: it decrypts to the nkpi signature with the standard keys, but the header declares 48 + 24·2 files + 36 (HASH) + 80 (names) + 8·1 groups + 41 (body) = 261 bytes, but the file has 200 bytes',
    );
    const alternate = writeNkpiArchive({ keys: 'alternate', scripts: { 'a.equ': '`a`' } });
    const longer = Buffer.concat([alternate, Buffer.alloc(1)]);
    expect(caught(() => open(longer)).message).toMatch(/^bad\.pvf: corrupt header: it decrypts to the nkpi signature with the alternate keys, but the header declares .* = \d+ bytes, but the file has \d+ bytes$/);
    // The standard family accepts trailing bytes (declared ≤ size), as pvfine does.
    expect(open(Buffer.concat([vectorBytes(), Buffer.alloc(900)])).fileCount).toBe(2);
  });

  it('a FileCount that does not match the table: the sections after it do not parse', () => {
    const bytes = patchHeader(vectorBytes(), (h) => {
      h.setInt32(24, 1, true);
      h.setInt32(44, 80 + 24, true);
    });
    const error = caught(() => open(bytes));
    expect(error.message).toMatch(/^bad\.pvf: the sTrA pool /);
  });
});

describe('wrong keys', () => {
  it('sections under other keys than the header: the first pool names the problem', () => {
    // An alternate archive whose header was re-encrypted with the standard key.
    const alternate = writeNkpiArchive({ keys: 'alternate', scripts: { 'a.equ': '[name]\n`a`' } });
    const header = Buffer.from(alternate.subarray(0, NKPI_HEADER_BYTES));
    xorKeystream(header, ALTERNATE_KEYS.header, LCG_MAIN);
    xorKeystream(header, STANDARD_KEYS.header, LCG_MAIN);
    const mixed = Buffer.concat([header, alternate.subarray(NKPI_HEADER_BYTES)]);
    const error = caught(() => open(mixed));
    expect(error.code).toBe('INVALID_ARCHIVE');
    expect(error.message).toMatch(/^bad\.pvf: the sTrA pool does not decrypt to a zlib stream \(first bytes [0-9a-f]{4}, expected 78 \.\.\): it is damaged or encrypted with other keys \(key standard\)$/);
  });

  it('GRPI and body under other keys', () => {
    const bytes = threeChunks();
    const layout = layoutOf(bytes);
    const grpi = Buffer.from(bytes);
    const block = grpi.subarray(layout.grpi, layout.body);
    xorKeystream(block, STANDARD_KEYS.grpi, LCG_MAIN);
    xorKeystream(block, ALTERNATE_KEYS.grpi, LCG_MAIN);
    expect(caught(() => open(grpi)).message).toMatch(/^bad\.pvf: the chunk index \(GRPI, 3 entries\) does not decrypt to a valid index with the standard keys: entry 0 .*; the archive is damaged or its sections use other keys$/);

    const body = Buffer.from(bytes);
    const chunk0 = body.subarray(layout.body, layout.body + 10);
    xorKeystream(chunk0, STANDARD_KEYS.body, LCG_MAIN);
    xorKeystream(chunk0, ALTERNATE_KEYS.body, LCG_MAIN);
    expect(caught(() => open(body)).message).toMatch(/^bad\.pvf: chunk 0 \(body bytes \d+\.\.\d+\) does not (decrypt to a zlib stream|inflate).* \(key standard\)$/);
  });
});

describe('chunks', () => {
  it('a chunk that inflates to less or more than its stated size', () => {
    const bytes = threeChunks();
    const archive = open(bytes);
    const orig1 = archive.groups.orig[1] as number;
    const more = patchGrpi(bytes, (g) => g.setInt32(12, orig1 + 1, true));
    expect(caught(() => open(more).readText('b.equ')).message).toMatch(new RegExp(`^bad\\.pvf: chunk 1 \\(body bytes \\d+\\.\\.\\d+, holding b\\.equ\\) inflates to ${orig1} bytes, not its stated ${orig1 + 1} \\(key standard\\)$`));
    const less = patchGrpi(bytes, (g) => g.setInt32(12, orig1 - 1, true));
    const lessArchive = open(less);
    // The file now lies partly outside the chunk's stated size.
    expect(caught(() => lessArchive.readText('b.equ')).message).toBe(`bad.pvf: b.equ: its ${orig1} bytes at offset 0 lie outside chunk 1, which inflates to ${orig1 - 1} bytes`);
    // Files of other chunks still read.
    expect(lessArchive.readText('a.equ').text).toBe('[name]\n\t`a`');
    // Chunk 0 is checked at open.
    const stated = patchGrpi(bytes, (g) => g.setInt32(4, 5, true));
    expect(caught(() => open(stated)).message).toMatch(/^bad\.pvf: chunk 0 \(body bytes \d+\.\.\d+\) inflates to more than its stated 5 bytes \(stopped there: a damaged or zip-bomb stream\) \(key standard\)$/);
  });

  it('GRPI that is not cumulative or does not end at BodySize', () => {
    const bytes = threeChunks();
    const flat = patchGrpi(bytes, (g) => g.setInt32(8, g.getInt32(0, true), true));
    expect(caught(() => open(flat)).message).toMatch(/GRPI, 3 entries\) does not decrypt to a valid index with the standard keys: entry 1 ends the chunk at body byte \d+, not after \d+/);
    const short = patchGrpi(bytes, (g) => g.setInt32(16, g.getInt32(16, true) - 1, true));
    expect(caught(() => open(short)).message).toMatch(/the last chunk ends at body byte \d+, but the header says the body has \d+ bytes/);
    const zero = patchGrpi(bytes, (g) => g.setInt32(4, 0, true));
    expect(caught(() => open(zero)).message).toMatch(/entry 0 states an inflated size of 0 bytes \(must be 1\.\.2\^30\)/);
  });

  it('a file table item naming a chunk that does not exist', () => {
    const bytes = patchTable(threeChunks(), 1, 2, 7);
    expect(caught(() => open(bytes).readFile('b.equ')).message).toBe('bad.pvf: b.equ: its file table item 1 names chunk 7, but the archive has 3 chunks');
  });

  it('zip-bomb-sized chunks are refused: over the limit unread, impossible ratios unread, liars stopped at their stated size', () => {
    // A chunk that honestly inflates to 200 MiB: over the 128 MiB limit, refused before inflating.
    // Chunk 0: a.equ and pad.bin; chunk 1: small.bin, then 200 MiB of zeros.
    const builder = new NkpiArchiveBuilder({ chunkBytes: 100 });
    builder.addScript('a.equ', '[name]\n`a`');
    builder.addFile('pad.bin', 0, Buffer.alloc(100));
    builder.addFile('small.bin', 0, Buffer.alloc(10, 1));
    builder.addFile('bomb.bin', 0, Buffer.alloc(200 * 1024 * 1024));
    const honest = builder.build();
    const archive = open(honest);
    const before = process.memoryUsage().arrayBuffers;
    const refused = caught(() => archive.readFile('bomb.bin'));
    expect(refused.message).toMatch(/^bad\.pvf: chunk 1 \(body bytes \d+\.\.\d+, holding bomb\.bin\) states an inflated size of 209715210 bytes \(200 MiB\), over the 128 MiB limit for one chunk; it is refused unread \(zip-bomb guard\)$/);
    expect(refused.data).toMatchObject({ chunk: 1, orig: 209715210, limit: DEFAULT_MAX_CHUNK_BYTES });
    // The same chunk stating 1 MiB: inflate stops at 1 MiB + 1 byte.
    const liar = patchGrpi(honest, (g) => g.setInt32(12, 1024 * 1024, true));
    const liarArchive = open(liar);
    expect(liarArchive.readText('a.equ').text).toBe('[name]\n\t`a`');
    expect(caught(() => liarArchive.readFile('small.bin')).message).toMatch(/^bad\.pvf: chunk 1 \(body bytes \d+\.\.\d+, holding small\.bin\) inflates to more than its stated 1048576 bytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    // Stating 100 MiB for a few dozen bytes: more than deflate can expand.
    const impossible = patchGrpi(threeChunks(), (g) => g.setInt32(12, 100 * 1024 * 1024, true));
    expect(caught(() => open(impossible).readFile('b.equ')).message).toMatch(/chunk 1 .* states 104857600 inflated bytes for \d+ compressed bytes, more than deflate can expand \(about 1032:1\); it is refused unread/);
    // A lower limit applies to ordinary chunks too.
    expect(caught(() => open(threeChunks(), 'bad.pvf', { maxChunkBytes: 4 }).readFile('a.equ')).message).toMatch(/chunk 0 .* over the 4 bytes limit/);
  });

  it('a pool stating a zip-bomb size is refused unread', () => {
    const bytes = Buffer.from(vectorBytes());
    // sTrA rawLen: b = rawLen ^ encSize at name table byte 12.
    bytes.writeUInt32LE((2 ** 31 ^ 40) >>> 0, 132 + 12);
    expect(caught(() => open(bytes)).message).toBe(
      'bad.pvf: the sTrA pool declares 2147483648 inflated bytes (2048 MiB), over the 16 MiB limit (for a 261 bytes archive: 32 × its size, at least 16 MiB); it is refused unread (zip-bomb guard)',
    );
    bytes.writeUInt32LE((1000 ^ 40) >>> 0, 132 + 12);
    // Only inflating shows a wrong stated size, and the pools are inflated on first need.
    const understated = open(bytes);
    expect(caught(() => understated.fileCount).message).toBe('bad.pvf: the sTrA pool inflates to 34 bytes, not its stated 1000 (key standard)');
  });
});

describe('name pools bounded by the archive', () => {
  /** A name table whose two pools state `rawLen` each and hold `encSize` bytes each (never inflated). */
  function nameTable(encSize: number, rawLens: [number, number]): Buffer {
    const keys = STANDARD_KEYS;
    const table = Buffer.alloc(NAME_TABLE_PREFIX_BYTES + 2 * (8 + encSize));
    let at = NAME_TABLE_PREFIX_BYTES;
    for (const [i, mask] of [keys.maskA, keys.maskW].entries()) {
      table.writeUInt32LE((encSize ^ mask) >>> 0, at);
      table.writeUInt32LE(((rawLens[i] ?? 0) ^ encSize) >>> 0, at + 4);
      at += 8 + encSize;
    }
    return table;
  }

  it('a 1 MB archive of zero-filled pools cannot claim 2 GB: both pools together stay within 32x its size', () => {
    // 1 MiB of compressed pool could honestly be 1 GiB of zeros (1032:1), so the ratio guard passes it.
    const encSize = 512 * 1024;
    const limits = poolLimitsFor(1024 * 1024);
    expect(limits.maxPoolBytes).toBe(32 * 1024 * 1024);
    const one = caught(() => parseNameTable(nameTable(encSize, [500 * 1024 * 1024, 0]), STANDARD_KEYS, 'bomb.pvf', limits));
    expect(one.message).toMatch(/^bomb\.pvf: the sTrA pool declares 524288000 inflated bytes \(500 MiB\), over the 32 MiB limit \(for a 1 MiB archive: 32 × its size, at least 16 MiB\); it is refused unread/);
    const both = caught(() => parseNameTable(nameTable(encSize, [20 * 1024 * 1024, 20 * 1024 * 1024]), STANDARD_KEYS, 'bomb.pvf', limits));
    expect(both.message).toMatch(/the sTrW pool declares 20971520 inflated bytes, 40 MiB with the other pool, over the 32 MiB limit/);
  });

  it('keeps the absolute limit for large archives (110US name pools are about 400 MB)', () => {
    expect(poolLimitsFor(4 * 1024 ** 3)).toEqual({ maxPoolBytes: DEFAULT_MAX_POOL_BYTES });
  });
});

describe('pool offsets out of range', () => {
  it('in the file table: the open names the item, the field and the pool', () => {
    expect(caught(() => open(patchTable(vectorBytes(), 1, 0, 1000))).message).toBe(
      'bad.pvf: file table item 1: its NameOffset points past the end of its string pool (offset 1000: sTrA byte 500, past the end of the 34-byte sTrA pool)',
    );
    expect(caught(() => open(patchTable(vectorBytes(), 0, 1, 99))).message).toBe(
      'bad.pvf: file table item 0: its PathOffset points past the end of its string pool (offset 99: sTrW code unit 49, past the end of the 4-unit sTrW pool)',
    );
    // A negative offset is the empty string (a root file): listed at the root.
    expect(open(patchTable(vectorBytes(), 1, 1, -1)).list('').map((e) => e.path)).toEqual(['a', 'c.str']);
  });

  it('in a script token: reading names the file, the token and its byte offset', () => {
    const bytes = new NkpiArchiveBuilder().addTokens('x.equ', [
      [3, 0],
      [6, 4000],
    ]);
    const archive = open(bytes.build());
    const error = caught(() => archive.readText('x.equ'));
    expect(error.message).toBe('bad.pvf: x.equ: token 1 (type 6) at byte offset 5 refers to a string out of range: offset 4000: sTrA byte 2000, past the end of the 7-byte sTrA pool');
    expect(error.data).toMatchObject({ path: 'x.equ', offset: 5, stringOffset: 4000 });
  });
});

describe('odd but valid input', () => {
  it('an empty archive; names with ./ prefixes, backslashes and duplicates; a folder beating a file', () => {
    expect(open(writeNkpiArchive({})).fileCount).toBe(0);
    const builder = new NkpiArchiveBuilder();
    builder.addText('./Top.txt', 'a');
    builder.addText('Dir\\Sub\\x.equ', 'b');
    builder.addText('dir/sub/X.EQU', 'duplicate');
    builder.addText('dir/sub', 'a file where a folder is');
    builder.addText('bad/../x', 'escapes');
    const archive = open(builder.build());
    expect(archive.list('').map((e) => e.path)).toEqual(['Dir', 'Top.txt']);
    expect(archive.readText('dir/SUB/x.equ').text).toBe('b');
    expect(archive.warnings()).toEqual([
      'file table item 4 ("bad/../x") is not listed: it contains a ".." segment',
      'file table item 3 ("Dir/sub") is not listed: a folder of the same name exists',
      '1 file table items repeat an earlier path; lookups use the first',
    ]);
  });

  it('unknown token types are dropped (as pvfine does) and reported', () => {
    const archive = open(new NkpiArchiveBuilder().addTokens('x.equ', [[0, 1], [4, 9], [0, 2]]).build());
    expect(archive.readText('x.equ').text).toBe('1\t2');
    expect(archive.warnings()).toEqual(['1 script tokens of unknown types (1, 4, 9, 11+) were left out of the texts read so far, as pvfine does']);
  });

  it('a paged 110 archive without its keys is not an nkpi archive to the plain reader (detection says why)', () => {
    const builder = new NkpiArchiveBuilder({ keys: 'paged110' });
    for (let i = 0; i < 500; i++) builder.addScript(`s/${i}.stk`, '[name]\n`x`');
    const locked = lockPages(builder.build(), [Buffer.alloc(32, 7)]);
    expect(caught(() => open(locked)).message).toMatch(/^bad\.pvf: not an nkpi archive: its first 4 bytes/);
  });
});
