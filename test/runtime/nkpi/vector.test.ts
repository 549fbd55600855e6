/**
 * The nkpi spec's vectors (pvf-nkpi-format §17): keystream prefixes and seeds, the real 2017 CN header,
 * the synthetic archive nkpi-standard.pvf decoded field by field exactly as §17.5 lists it, the writer
 * reproducing it byte for byte (and its alternate-key, guarded twin: header bytes and SHA-256), and the
 * text vectors of §17.4 through the renderer.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NKPI_HEADER_BYTES, decryptHeader, parseHeaderFields, probeNkpiHeader } from '../../../runtime/nkpi/header.js';
import { ALTERNATE_KEYS, asciiSeed, LCG_ALT, LCG_MAIN, PAGED110_KEYS, STANDARD_KEYS, wideSeed, xorKeystream } from '../../../runtime/nkpi/keystream.js';
import { openNkpiArchiveBytes } from '../../../runtime/nkpi/nkpi-archive.js';
import { formatNkpiFloat, PVFINE_RENDER_RULES, readNkpiTokens, renderNkpiScript, sectionRules, type RenderRules } from '../../../runtime/nkpi/render-script.js';
import { float32Bits } from '../../../runtime/script/script-float.js';
import { encodeScriptText, NkpiPoolBuilder, tokenBytes, writeNkpiArchive } from '../../support/write-nkpi-archive.js';
import { NKPI_ALTERNATE_HEADER, NKPI_ALTERNATE_SHA256, NKPI_SHA256, VECTOR_SCRIPT, VECTOR_STR, vectorBytes, vectorDeflate } from './helpers.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('keystream and seeds (§2, §17.1)', () => {
  it('every seed of §2.3 from its key name', () => {
    const seeds = (k: typeof STANDARD_KEYS) => [k.header, k.hash, k.grpi, k.body, k.strA, k.strW];
    expect(seeds(STANDARD_KEYS)).toEqual([0x76c5d612, 0xb45f4ee4, 0x998c3872, 0xe5b4dfee, 0x0328e03a, 0x032906d0]);
    expect(seeds(ALTERNATE_KEYS)).toEqual([0x4a454634, 0x4b449936, 0x1fbb7078, 0xdd4ff706, 0x712a98d4, 0x712ae776]);
    expect(seeds(PAGED110_KEYS)).toEqual([0x1aaeb306, 0x5824c072, 0x105d0366, 0x961feb63, 0xe4248e51, 0xe53d9b57]);
    expect(asciiSeed('HeaD')).toBe(0x76c5d612);
    expect(wideSeed('HSrm')).toBe(0x5824c072); // the inference of §14.4
  });

  it('keystream prefixes of §17.1, the 7-byte tail and unaligned buffers', () => {
    const stream = (seed: number, m: number, n = 8) => hex(xorKeystream(new Uint8Array(n), seed, m));
    expect(stream(0x76c5d612, LCG_MAIN)).toBe('cb45e7aaf136f364');
    expect(stream(0x0328e03a, LCG_ALT)).toBe('dad8e972fbd97e4f');
    expect(stream(0x4a454634, LCG_MAIN)).toBe('4c4e985a2c0158c2');
    expect(stream(0x712ae776, LCG_ALT)).toBe('ed4483c8a64b66e1');
    expect(stream(0x76c5d612, LCG_MAIN, 7)).toBe('cb45e7aaf136f3');
    const unaligned = new Uint8Array(9).subarray(1);
    expect(hex(xorKeystream(unaligned, 0x76c5d612, LCG_MAIN))).toBe('cb45e7aaf136f364');
  });

  it('the real 2017 CN header (§17.2) decrypts with the alternate keys, no guard', () => {
    const encrypted = Buffer.from('2225E83379981F9B79B334E4B93A523FAB92A1CC1C35281670CAD51C56DACE5C9848919C4309E5E94F6C5369EC69B4BE', 'hex');
    expect(hex(decryptHeader(encrypted, 0x4a454634, LCG_MAIN, false))).toBe('6E6B7069559947593EAA477E136A52A63B35410EECD694E4F2B40C00882A47023B7DDF028A1B0000C8AB810090AB9300'.toLowerCase());
    const header = parseHeaderFields(decryptHeader(encrypted, 0x4a454634, LCG_MAIN, false));
    expect(hex(header.guid)).toBe('559947593eaa477e136a52a63b35410eecd694e4');
    expect(header).toMatchObject({ fileCount: 832_754, padding: 38_218_376, bodySize: 48_201_019, groupCount: 7050, hashTableSize: 8_498_120, nameTableSize: 9_677_712, declaredSize: 86_419_395 });
    const probe = probeNkpiHeader(encrypted, 86_419_395);
    expect(probe.ok).toMatchObject({ variant: 'alternate', guard: false });
    // One byte longer or shorter: the alternate family needs the exact size.
    expect(probeNkpiHeader(encrypted, 86_419_396).ok).toBeNull();
  });
});

describe('nkpi-standard.pvf (§17.5)', () => {
  const bytes = vectorBytes();

  it('is the 261-byte vector', () => {
    expect(bytes.length).toBe(261);
    expect(sha256(bytes)).toBe(NKPI_SHA256);
  });

  it('header: standard keys, no guard, FileCount 2, BodySize 41, GroupCount 1, HASH 36, names 80, zero GUID', () => {
    const archive = openNkpiArchiveBytes(bytes, 'nkpi-standard.pvf');
    expect(archive.variant).toBe('standard');
    expect(archive.clientVersion).toBe('90US');
    expect(archive.guard).toBe(false);
    expect(archive.header).toEqual({ guid: new Uint8Array(20), fileCount: 2, padding: 0, bodySize: 41, groupCount: 1, hashTableSize: 36, nameTableSize: 80, declaredSize: 261 });
    expect(archive.offsets).toEqual({ table: 48, hash: 96, names: 132, grpi: 212, body: 220 });
    expect(hex(archive.namePrefix)).toBe('0000000000000000');
  });

  it('pools: sTrA 34 bytes, sTrW 8 bytes; the offsets of §17.5', () => {
    const archive = openNkpiArchiveBytes(bytes, 'nkpi-standard.pvf');
    expect(archive.pools.a.toString('latin1')).toBe('\0[name]\0[grade]\0x`y\0b.equ\0a\0c.str\0');
    expect(hex(archive.pools.w)).toBe('00000d54575b0000');
    const at = (o: number) => archive.pools.stringAt(o);
    expect([at(2), at(3), at(16), at(32), at(40), at(52), at(56), at(0), at(1), at(-1)]).toEqual(['[name]', '名字', '[grade]', 'x`y', 'b.equ', 'a', 'c.str', '', '', '']);
    expect(at(68)).toBeNull();
    expect(at(9)).toBeNull();
  });

  it('file table, GRPI, chunk and payloads', () => {
    const archive = openNkpiArchiveBytes(bytes, 'nkpi-standard.pvf');
    expect(hex(bytes.subarray(48, 96))).toBe('28000000' + '34000000' + '00000000' + '00000000' + '1e000000' + '01000000' + '38000000' + '34000000' + '00000000' + '1e000000' + '0a000000' + '03000000');
    expect(Array.from(archive.groups.cum)).toEqual([41]);
    expect(Array.from(archive.groups.orig)).toEqual([40]);
    expect(hex(xorKeystream(Uint8Array.from(bytes.subarray(212, 220)), STANDARD_KEYS.grpi, LCG_MAIN))).toBe('2900000028000000');
    expect(hex(xorKeystream(Uint8Array.from(bytes.subarray(220, 222)), STANDARD_KEYS.body, LCG_MAIN))).toBe('789c');
    expect(archive.list('')).toEqual([{ kind: 'directory', name: 'a', path: 'a', size: null, entry: -1 }]);
    expect(archive.list('a')).toEqual([
      { kind: 'file', name: 'b.equ', path: 'a/b.equ', size: 30, entry: 0 },
      { kind: 'file', name: 'c.str', path: 'a/c.str', size: 10, entry: 1 },
    ]);
    expect([archive.dataTypeOf(0), archive.dataTypeOf(1)]).toEqual([1, 3]);
    expect(hex(archive.readFile('a/c.str'))).toBe(hex(Buffer.from('k>v\r\n', 'utf16le')));
    expect(archive.readText('A/C.STR')).toMatchObject({ path: 'a/c.str', text: 'k>v\n', isScript: false, source: 'text' });
    expect(archive.warnings()).toEqual([]);
  });

  it('HASH plaintext: count 2, the pairs, then the lookup list a, b.equ, c.str', () => {
    const plain = xorKeystream(Uint8Array.from(bytes.subarray(96, 132)), STANDARD_KEYS.hash, LCG_MAIN);
    expect(hex(plain)).toBe('020000002800000034000000380000003400000003000000340000002800000038000000');
  });

  it('tokens (3,2) (6,3) (3,16) (0,74) (2,0x3FC00000) (5,32) render as pvfine text', () => {
    const archive = openNkpiArchiveBytes(bytes, 'nkpi-standard.pvf');
    const tokens = archive.tokens('a/b.equ');
    expect(Array.from(tokens.types)).toEqual([3, 6, 3, 0, 2, 5]);
    expect(Array.from(tokens.values)).toEqual([2, 3, 16, 74, 0x3fc00000, 32]);
    expect(archive.readText('a/b.equ')).toMatchObject({ text: '[name]\n\t`名字`\n\n[grade]\n\t74\t1.5\n\t{5=`x``y`}', isScript: true, source: 'script', dataType: 1 });
  });

  it('the writer reproduces the vector byte for byte (with the vector’s zlib 1.2.13 streams)', () => {
    const written = writeNkpiArchive({ scripts: [['a/b.equ', VECTOR_SCRIPT]], files: [['a/c.str', VECTOR_STR]], deflate: vectorDeflate() });
    expect(sha256(written)).toBe(NKPI_SHA256);
  });

  it('the writer reproduces the alternate-key, guarded twin: its first 48 bytes and SHA-256', () => {
    const written = writeNkpiArchive({ keys: 'alternate', guard: true, scripts: [['a/b.equ', VECTOR_SCRIPT]], files: [['a/c.str', VECTOR_STR]], deflate: vectorDeflate() });
    expect(hex(written.subarray(0, NKPI_HEADER_BYTES))).toBe(NKPI_ALTERNATE_HEADER);
    expect(sha256(written)).toBe(NKPI_ALTERNATE_SHA256);
    // Its first 4 bytes are the real CN header's (§17.2): the same keystream over `nkpi`.
    expect(hex(written.subarray(0, 4))).toBe('2225e833');
    const archive = openNkpiArchiveBytes(written, 'alternate.pvf');
    expect(archive.variant).toBe('alternate-guard');
    expect(archive.clientVersion).toBe('90CN');
    expect(archive.readText('a/b.equ').text).toBe('[name]\n\t`名字`\n\n[grade]\n\t74\t1.5\n\t{5=`x``y`}');
  });

  it('with Node’s own zlib the writer gives other streams, which read back the same', () => {
    for (const keys of ['standard', 'alternate'] as const) {
      for (const guard of [false, true]) {
        const archive = openNkpiArchiveBytes(writeNkpiArchive({ keys, guard, scripts: [['a/b.equ', VECTOR_SCRIPT]], files: [['a/c.str', VECTOR_STR]] }), `${keys}-${guard}`);
        expect(archive.variant).toBe(`${keys}${guard ? '-guard' : ''}`);
        expect(archive.readText('a/b.equ').text).toBe('[name]\n\t`名字`\n\n[grade]\n\t74\t1.5\n\t{5=`x``y`}');
        expect(archive.readText('a/c.str').text).toBe('k>v\n');
      }
    }
  });
});

/** No layout rules: every value stays on its section's line, so a round trip shows the bare token order. */
const NO_RENDER_RULES: RenderRules = { file: () => null, section: () => null };

/** Encodes text as pvfine does, then renders it (a path decides the file rule). */
function roundTrip(text: string, rules: RenderRules = NO_RENDER_RULES, path = 'x.equ'): string {
  const pool = new NkpiPoolBuilder();
  const tokens = readNkpiTokens(tokenBytes(encodeScriptText(text, pool)));
  const a = pool.a;
  const w = pool.w;
  const strings = new Map<number, string>();
  for (let i = 0, start = 0; i <= a.length; i++) {
    if (i === a.length || a[i] === 0) {
      strings.set(start << 1, a.toString('utf8', start, i));
      start = i + 1;
    }
  }
  for (let u = 0, start = 0; 2 * u <= w.length; u++) {
    if (2 * u === w.length || w.readUInt16LE(2 * u) === 0) {
      strings.set((start << 1) | 1, w.toString('utf16le', 2 * start, 2 * u));
      start = u + 1;
    }
  }
  return renderNkpiScript(tokens, { archive: 'test', path, string: (o) => strings.get(o) ?? null, describeOffset: String, rules }).text;
}

describe('pvfine text dialect (§11, §17.4)', () => {
  it('vector 1: unpaired sections, one value line each, blank lines between, no final newline', () => {
    expect(roundTrip('[name]\n`测试物品`\n[grade]\n74\n[rarity]\n3\n[price]\n12.5\n[icon]\n`item/x.img` 3\n')).toBe(
      '[name]\n\t`测试物品`\n\n[grade]\n\t74\n\n[rarity]\n\t3\n\n[price]\n\t12.5\n\n[icon]\n\t`item/x.img`\t3',
    );
  });

  it('vector 2: a paired section, without and with a rule of 2 per line', () => {
    expect(roundTrip('[records]\n1 2 3 4 5\n[/records]')).toBe('[records]\n\t1\t2\t3\t4\t5\n[/records]\n');
    expect(roundTrip('[records]\n1 2 3 4 5\n[/records]', sectionRules({}, { records: { tokensPerLine: 2 } }))).toBe('[records]\n\t1\t2\n\t3\t4\n\t5\n[/records]\n');
  });

  it('vector 3: a section rule of 7 per line after offset 1 on an unpaired section', () => {
    const rules = sectionRules({}, { 'basis of rarity dicision': { tokensPerLine: 7, offset: 1 } });
    expect(roundTrip('[basis of rarity dicision]\n99 1 2 3 4 5 6 7 8\n[next]', rules)).toBe('[basis of rarity dicision]\n\t99\n\t1\t2\t3\t4\t5\t6\t7\n\t8\n\n[next]\n');
  });

  it('pvfine’s default rules: .lst 2 per line at indent 0, [level info] width from value 0, standalone values', () => {
    expect(roundTrip('1 `a.equ` 2 `b.equ`', PVFINE_RENDER_RULES, 'x/x.lst')).toBe('1\t`a.equ`\n2\t`b.equ`');
    expect(roundTrip('[level info]\n3 1 2 3 4 5 6', PVFINE_RENDER_RULES)).toBe('[level info]\n\t3\n\t1\t2\t3\n\t4\t5\t6');
    const rules = sectionRules({}, { 'world drop': { tokensPerLine: 2, standaloneValues: [-1] } });
    expect(roundTrip('[world drop]\n1 2 -1 3 4 5', rules)).toBe('[world drop]\n\t1\t2\n\t-1\n\t3\t4\n\t5');
  });

  it('nesting: depth tabs; block tokens on their own line; words verbatim; a closing tag pops to its frame', () => {
    expect(roundTrip('[a]\n[b]\n1 {8=`<3::k>`} 2\n[/b]\n[/a]')).toBe('[a]\n\t[b]\n\t\t1\n\t\t\t{8=`<3::k>`}\t2\n\t[/b]\n[/a]\n');
    expect(roundTrip('[a]\nword 1\n[c]\n[/a]')).toBe('[a]\n\tword\n\t1\n\t[c]\n[/a]\n');
  });

  it('floats (§11.2): Go %g with .0 appended', () => {
    const f = (x: number) => formatNkpiFloat(float32Bits(x));
    expect([f(100), f(-0), f(12.5), f(1e6), f(1234567), f(1e-5), f(0.0001), f(123456), f(NaN), f(Infinity), f(-Infinity)]).toEqual([
      '100.0',
      '-0.0',
      '12.5',
      '1e+06',
      '1.234567e+06',
      '1e-05',
      '0.0001',
      '123456.0',
      'NaN',
      '+Inf',
      '-Inf',
    ]);
  });

  it('unknown token types are dropped and counted', () => {
    const rendered = renderNkpiScript(readNkpiTokens(tokenBytes([[0, 1], [1, 7], [9, 2], [0, 2]])), { archive: 't', path: 'x.equ', string: () => '', describeOffset: String });
    expect(rendered).toEqual({ text: '1\t2', dropped: 2, firstDropped: { type: 1, offset: 5 } });
  });
});
