/**
 * Round trips: the real sample scripts written into archives (several encodings) read back as canonical
 * text that compiles to the same tokens and is a fixed point; the canonical text's layout rules on
 * synthetic token streams; float formatting against the explain lexer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openClassicArchiveBytes, type ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import { MAX_INDENT } from '../../../runtime/script/script-text-limits.js';
import { formatScriptFloat, float32Bits, float32FromBits } from '../../../runtime/script/script-float.js';
import { isStringToken } from '../../../runtime/classic/script-tokens.js';
import { canonicalWord, formatFloat32, parseFloat32 } from '../../../runtime/script/canonical-number.js';
import { lexScript } from '../../../runtime/script/lex-script.js';
import { buildClassicArchive, compileScriptText, StringTableBuilder, writeClassicArchive } from '../../support/write-classic-archive.js';
import { sampleScripts } from './helpers.js';

/** A compiled script as (type, value-or-string) pairs: string tokens resolved through the table. */
function resolvedTokens(text: string): string[] {
  const table = new StringTableBuilder();
  const bytes = compileScriptText(text, table);
  const out: string[] = [];
  for (let at = 2; at + 5 <= bytes.length; at += 5) {
    const type = bytes[at] as number;
    const value = bytes.readInt32LE(at + 1);
    out.push(isStringToken(type) ? `${type}:${JSON.stringify(table.strings[value])}` : `${type}:${value}`);
  }
  return out;
}

function readAll(archive: ClassicArchive, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, archive.readText(name).text]));
}

describe('real samples packed into an archive', () => {
  const samples = sampleScripts();
  const names = samples.map(([name]) => name);
  const traditional = samples.filter(([name]) => /2011_championship|n_string|test\.skl/.test(name));

  const cases: { encoding: string; scripts: [string, string][] }[] = [
    { encoding: 'utf-8', scripts: samples },
    { encoding: 'cp936', scripts: samples },
    { encoding: 'cp950', scripts: traditional.filter(([name]) => !name.endsWith('test.skl')) },
  ];

  for (const { encoding, scripts } of cases) {
    describe(`${encoding} archive of ${scripts.length} samples`, () => {
      const archive = openClassicArchiveBytes(writeClassicArchive({ scripts, encoding }), `samples-${encoding}.pvf`);
      const texts = readAll(
        archive,
        scripts.map(([name]) => name),
      );

      it(`detects ${encoding}`, () => {
        expect(archive.encoding.encoding).toBe(encoding);
        expect(archive.encoding.source).toBe('detected');
      });

      it('every sample reads as a script whose canonical text compiles to the same tokens', () => {
        for (const [name, original] of scripts) {
          const text = texts[name] as string;
          expect(text.startsWith('#PVF_File\n'), name).toBe(true);
          expect(text).not.toContain('\r');
          expect(archive.readText(name).isScript).toBe(true);
          expect(resolvedTokens(text), name).toEqual(resolvedTokens(original));
        }
      });

      it('the canonical text is a fixed point: written again, it reads back identically', () => {
        const again = openClassicArchiveBytes(writeClassicArchive({ scripts: Object.entries(texts), encoding }), 'again.pvf');
        expect(readAll(again, Object.keys(texts))).toEqual(texts);
      });

      it('the explain lexer reads the canonical text without warnings', () => {
        for (const [name, text] of Object.entries(texts)) expect(lexScript(text).warnings, name).toEqual([]);
      });
    });
  }

  it('keeps the layout users know: blank line, tag, tab-indented body; nested blocks indented', () => {
    const archive = openClassicArchiveBytes(writeClassicArchive({ scripts: samples, encoding: 'utf-8' }), 'samples.pvf');
    const skill = archive.readText('skill/fighter/earthbreak.skl').text;
    expect(skill).toContain('\n\n[command]\n\t{6=`(RIGHT)`}\n\t{8=`,`}\n\t{6=`(UP)`}\n');
    expect(skill).toContain('\n[/command]\n\n[command key explain]\n');
    expect(skill).toContain('\n\n[dungeon]\n\t[consume MP]\n\t\t20\t238\n\t[cool time]\n\t\t5000\t5000\n\t[static data]\n\t\t150\t150\t50\n\t[/static data]\n\t[level info]\n\t\t5\t110\t330');
    expect(skill).toContain('\n\t`Character/Fighter/Effect/SkillIcon.img`\t192\n');
    const equ = archive.readText('equipment/weapon/102010612.equ').text;
    expect(equ).toContain('\n\n[if]\n\t[is stat]\n\t\t`myself`\t-1\n\t\t`fire attack`\n\t\t`>`\t150\n[/if]\n');
    const list = archive.readText('n_string.lst').text;
    expect(list.startsWith('#PVF_File\n\n0\n`Character/Character.kor.str`\n1\n`Common/Common.kor.str`\n')).toBe(true);
    expect(list.endsWith('\n25\n`ClientOnly/ClientOnly.kor.str`')).toBe(true);
    // Tabs inside strings survive.
    expect(archive.readText('stackable/potion/test_nostrum_greatvital.stk').text).toContain('\t`\t使用后，\t增加1450点HP最大值，\t效果持续30分钟。`\n');
  });

  it(names.length + ' samples in one archive: every file listed', () => {
    const archive = openClassicArchiveBytes(writeClassicArchive({ scripts: samples, encoding: 'utf-8' }), 'samples.pvf');
    expect(archive.fileCount).toBe(names.length + 1);
    for (const name of names) expect(archive.resolve(name.toUpperCase())?.path).toBe(name);
  });
});

// --- Synthetic token streams ---

type Token = [type: number, value: number | string];

/** An archive holding one script made of exact tokens (strings given as text go to stringtable.bin). */
function scriptArchive(tokens: Token[], extra: Record<string, string | Uint8Array> = {}, strings: string[] = []): ClassicArchive {
  const table = new StringTableBuilder(strings);
  const bytes = Buffer.alloc(2 + 5 * tokens.length);
  bytes[0] = 0xb0;
  bytes[1] = 0xd0;
  tokens.forEach(([type, value], i) => {
    bytes[2 + 5 * i] = type;
    bytes.writeInt32LE(typeof value === 'string' ? table.indexOf(value) : value, 3 + 5 * i);
  });
  const files = [
    { path: 'test/script.equ', data: bytes },
    { path: 'stringtable.bin', data: table.toBytes('utf-8') },
    ...Object.entries(extra).map(([path, data]) => ({ path, data: typeof data === 'string' ? Buffer.from(data) : data })),
  ];
  return openClassicArchiveBytes(buildClassicArchive(files), 'tokens.pvf', { encoding: 'utf-8' });
}

/** Decompiles tokens, checks the text compiles back to the same resolved tokens, returns the text. */
function decompiled(tokens: Token[]): string {
  const text = scriptArchive(tokens).readText('test/script.equ').text;
  const expected = tokens.map(([type, value]) => (typeof value === 'string' ? `${type}:${JSON.stringify(value)}` : `${type}:${value}`));
  expect(resolvedTokens(text)).toEqual(expected);
  return text;
}

describe('canonical text layout (README "Canonical script text")', () => {
  it('values: ints and floats share a line after the first child; strings start new lines', () => {
    expect(decompiled([[5, '[a]'], [7, 'x'], [2, 1], [4, float32Bits(2.5)], [7, 'y'], [2, -3]])).toBe('#PVF_File\n\n[a]\n\t`x`\t1\t2.5\n\t`y`\t-3\n');
  });

  it('IntEx, commands, unpaired link parts and odd sections use {N=...}', () => {
    expect(decompiled([[5, '[a]'], [3, 7], [6, '(UP)'], [8, ','], [9, 4], [2, 1], [10, 'k'], [5, 'no brackets'], [5, '[a]b]'], [5, '']])).toBe(
      '#PVF_File\n\n[a]\n\t{3=7}\n\t{6=`(UP)`}\n\t{8=`,`}\n\t{9=4}\t1\n\t{10=`k`}\n\n{5=`no brackets`}\n\n{5=`[a]b]`}\n\n{5=``}\n',
    );
  });

  it('floats without a plain form: NaN, infinities, negative zero', () => {
    expect(decompiled([[4, 0x7fc00000], [4, 0x7f800000 | 0], [4, 0xff800000 | 0], [4, 0x80000000 | 0], [4, 0]])).toBe(
      `#PVF_File\n\n{4=2143289344}\n{4=2139095040}\n{4=-8388608}\n{4=-2147483648}\n0.0`,
    );
  });

  it('backticks in strings are doubled', () => {
    expect(decompiled([[7, 'a`b'], [7, '`'], [7, '']])).toBe('#PVF_File\n\n`a``b`\n````\n``');
  });

  it('nested sections: same-name nesting pairs inner first; crossing pairs fall back to open sections', () => {
    expect(decompiled([[5, '[if]'], [5, '[if]'], [2, 1], [5, '[/if]'], [2, 2], [5, '[/if]']])).toBe('#PVF_File\n\n[if]\n\t[if]\n\t\t1\n\t[/if]\n\t2\n[/if]\n');
    expect(decompiled([[5, '[a]'], [5, '[b]'], [2, 1], [5, '[/a]'], [2, 2], [5, '[/b]']])).toBe('#PVF_File\n\n[a]\n\t[b]\n\t\t1\n[/a]\n\n2\n[/b]\n');
  });

  it('stray closing tags and top-level values before a section', () => {
    expect(decompiled([[2, 1], [7, 'x'], [5, '[/z]'], [2, 5], [5, '[y]']])).toBe('#PVF_File\n\n1\n`x`\n[/z]\n\t5\n\n[y]\n');
  });

  it('deep nesting stays linear (no recursion; indentation stops at MAX_INDENT tabs)', () => {
    const depth = 20_000;
    const tokens: Token[] = [];
    for (let i = 0; i < depth; i++) tokens.push([5, `[s${i % 7}]`]);
    tokens.push([2, 42]);
    for (let i = depth - 1; i >= 0; i--) tokens.push([5, `[/s${i % 7}]`]);
    const text = scriptArchive(tokens).readText('test/script.equ').text;
    expect(text.split('\n').length).toBe(2 * depth + 4);
    expect(text).toContain(`\n${'\t'.repeat(MAX_INDENT)}42\n`);
    expect(text.length).toBeLessThan(2 * depth * (MAX_INDENT + 10));
  });

  it('links: resolved from the .str table of n_string.lst (by value, else ordinal), missing keys reported', () => {
    const nString = Buffer.alloc(2 + 20);
    // n_string.lst: (2, 7)(7, "a/t.str") (2, 0)(7, "B/U.STR") — table 7 by value, table 1 by ordinal.
    const strings = ['a/t.str', 'B/U.STR'];
    nString[0] = 0xb0;
    nString[1] = 0xd0;
    [
      [2, 7],
      [7, 0],
      [2, 0],
      [7, 1],
    ].forEach(([type, value], i) => {
      nString[2 + 5 * i] = type as number;
      nString.writeInt32LE(value as number, 3 + 5 * i);
    });
    const archive = scriptArchive(
      [
        [5, '[name]'],
        [9, 7],
        [10, 'k1'],
        [9, 1],
        [10, 'k2'],
        [9, 0],
        [10, 'k2'],
        [9, 3],
        [10, 'k1'],
        [9, 7],
        [10, 'nope'],
        [9, 7],
        [10, 'a`b'],
      ],
      { 'n_string.lst': nString, 'a/t.str': 'k1>one > two\r\n//k2>comment\r\n k2 >x`y\r\n>skip\r\nnoline\r\n', 'b/u.str': 'k2>from u\n' },
      strings,
    );
    const read = archive.readText('test/script.equ');
    expect(read.text).toBe('#PVF_File\n\n[name]\n\t<7::k1`one > two`>\n\t<1::k2`from u`>\n\t<0::k2`from u`>\n\t<3::k1``>\n\t<7::nope``>\n\t{9=7}\n\t{10=`a``b`}\n');
    expect(read.missingLinks.map((m) => m.reason)).toEqual(['n_string.lst has no table 3', 'a/t.str (table 7) has no key "nope"']);
  });
});

describe('float formatting', () => {
  it('examples: pvfUtility G7 layout for ≤ 7 digits, scientific outside 1e-4..1e7, always a "."', () => {
    const f = (x: number) => formatScriptFloat(float32Bits(x));
    expect(f(1.5)).toBe('1.5');
    expect(f(-2.25)).toBe('-2.25');
    expect(f(100000)).toBe('100000.0');
    expect(f(1234567)).toBe('1234567.0');
    expect(f(12345678)).toBe('1.2345678e+07');
    expect(f(0.0001)).toBe('0.0001');
    expect(f(0.00001)).toBe('1.0e-05');
    expect(f(0.1)).toBe('0.1');
    expect(f(1 / 3)).toBe('0.33333334');
    expect(f(3.4028234663852886e38)).toBe('3.4028235e+38');
    expect(f(1.401298464324817e-45)).toBe('1.0e-45');
    expect(f(16777216)).toBe('1.6777216e+07');
    expect(f(0)).toBe('0.0');
    expect(f(-0)).toBeNull();
  });

  it('every finite float32 (but -0) prints with a "." and re-lexes to the same bits in the explain lexer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -0x80000000, max: 0x7fffffff }), (bits) => {
        const value = float32FromBits(bits);
        const text = formatScriptFloat(bits);
        if (!Number.isFinite(value) || Object.is(value, -0)) {
          expect(text).toBeNull();
          return;
        }
        expect(text).not.toBeNull();
        expect(text).toContain('.');
        const back = parseFloat32(text as string);
        expect(float32Bits(back as number)).toBe(bits);
        const word = canonicalWord(text as string);
        expect(word.type).toBe(2);
        expect(word.value).toBe(formatFloat32(value));
      }),
      { numRuns: 20_000, seed: 20240611 },
    );
  });
});
