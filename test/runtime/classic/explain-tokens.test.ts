/**
 * Explain never misreads the canonical text of a classic archive: for every sample script and for
 * random token streams, the tokens the explain lexer reads from the decompiled text are the archive's
 * token stream, one for one, under the documented canonicalisation (runtime/classic/README.md,
 * "What explain reads"):
 *
 * | classic token | canonical text | explain token |
 * |---|---|---|
 * | 2 Int, 3 IntEx | `n`, `{3=n}` | integer (0), `n` |
 * | 4 Float | `1.5`, `1.0e-05`, `{4=bits}` | float (2), Go's shortest `%g` of the float32 (`1e-05`, `-0`, `NaN`, `+Inf`) |
 * | 5 `[x]` / `[/x]` (plain) | itself | open / close tag `x`; `[]` and `[/]` a type-3 value |
 * | 5 other | `{5=`s`}` | 5, `s` |
 * | 6 Command, 8 Separator | `{6=`s`}`, `{8=`s`}` | 6 / 8, `s` |
 * | 7 String | `` `s` `` | 6, `s` |
 * | 9 + 10 (plain key) | `<id::key`text`>` | 8, `<id::key>` (the text is the `.str` lookup) |
 * | 9 alone (or before an unprintable key) | `{9=id}` | 3, `9=id}` (pvfine's reading: `{9=` is no marker) |
 * | 10 alone | `{10=`key`}` | 10, `key` |
 *
 * Strings compare after CR → LF (the canonical text has no CR). Spans: every token re-lexes alone to
 * itself, and nothing but whitespace, the `#PVF_File` comment and the `{` of a `{9=` lies between tokens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openClassicArchiveBytes, type ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import { isPlainLinkKey, isPlainSection } from '../../../runtime/classic/decompile.js';
import { float32FromBits } from '../../../runtime/script/script-float.js';
import { readScriptTokens, TokenType } from '../../../runtime/classic/script-tokens.js';
import { encodeText } from '../../../runtime/classic/text-encoding.js';
import { formatFloat32 } from '../../../runtime/script/canonical-number.js';
import { lexScript, type LexToken } from '../../../runtime/script/lex-script.js';
import { normalizeText } from '../../../runtime/script/normalize-text.js';
import { buildClassicArchive, StringTableBuilder } from '../../support/write-classic-archive.js';
import { archiveFiles, buildSampleArchive, LINKED_EQU, SAMPLE_PATHS } from './sample-workspace.js';

/** A token as compared: `open:x`, `close:x`, or `<type>:<value>`. */
type Shown = string;

function showLexed(token: LexToken): Shown {
  return token.kind === 'value' ? `${token.type}:${token.value}` : `${token.kind}:${token.name}`;
}

/** The explain tokens a classic token stream must lex as (the table above). */
function expectedTokens(types: ArrayLike<number>, values: ArrayLike<number>, count: number, string: (i: number) => string): Shown[] {
  const out: Shown[] = [];
  for (let i = 0; i < count; i++) {
    const type = types[i] as number;
    const value = values[i] as number;
    switch (type) {
      case TokenType.Int:
      case TokenType.IntEx:
        out.push(`0:${value}`);
        break;
      case TokenType.Float:
        out.push(`2:${formatFloat32(float32FromBits(value))}`);
        break;
      case TokenType.Section: {
        const s = string(value);
        if (!isPlainSection(s)) out.push(`5:${normalizeText(s)}`);
        else if (s === '[]' || s === '[/]') out.push(`3:${s}`);
        else if (s[1] === '/') out.push(`close:${s.slice(2, -1)}`);
        else out.push(`open:${s.slice(1, -1)}`);
        break;
      }
      case TokenType.Command:
      case TokenType.CommandSeparator:
      case TokenType.LinkKey:
        out.push(`${type}:${normalizeText(string(value))}`);
        break;
      case TokenType.String:
        out.push(`6:${normalizeText(string(value))}`);
        break;
      case TokenType.LinkIndex: {
        const key = i + 1 < count && types[i + 1] === TokenType.LinkKey ? string(values[i + 1] as number) : null;
        if (key !== null && isPlainLinkKey(key)) {
          out.push(`8:<${value}::${key}>`);
          i++;
        } else {
          out.push(`3:9=${value}}`);
        }
        break;
      }
      default:
        throw new Error(`token type ${type}`);
    }
  }
  return out;
}

/** Checks one compiled script of an archive; returns how many tokens were compared. */
function checkScript(archive: ClassicArchive, file: string): number {
  const bytes = archive.readFile(file);
  const { count, types, values } = readScriptTokens(bytes, archive.label, file);
  const table = archive.stringTable();
  if (!('table' in table)) throw new Error('no stringtable.bin');
  const text = archive.readText(file).text;
  const lexed = lexScript(text);
  expect(lexed.warnings, file).toEqual([]);
  expect(lexed.tokens.map(showLexed), `${file}:\n${text}`).toEqual(expectedTokens(types, values, count, (i) => table.table.get(i)));

  // Spans: each token alone lexes to itself; between tokens only whitespace, comments, and `{` of `{9=`.
  const covered = new Uint8Array(text.length);
  for (const token of lexed.tokens) {
    expect(lexScript(text.slice(token.start, token.end)).tokens.map(showLexed), file).toEqual([showLexed(token)]);
    covered.fill(1, token.start, token.end);
    if (token.kind === 'value' && token.type === 3 && token.value.startsWith('9=') && text[token.start - 1] === '{') covered[token.start - 1] = 1;
  }
  for (const comment of lexed.comments) covered.fill(1, comment.start, comment.end);
  let rest = '';
  covered.forEach((c, i) => {
    if (c === 0) rest += text[i];
  });
  expect(rest.replace(/[ \t\n\v\f]/g, ''), file).toBe('');
  return count;
}

describe('explain reads the canonical text of a classic archive as its token stream', () => {
  it('the classic forms one by one (§7.3 and every escape)', () => {
    const table = new StringTableBuilder();
    const s = (x: string) => table.indexOf(x);
    const records: [number, number][] = [
      [5, s('[name]')],
      [9, 0],
      [10, s('name_1')],
      [5, s('[rate]')],
      [4, 0x3fc00000],
      [2, -2],
      [3, 7],
      [4, 0x80000000 | 0],
      [4, 0x7fc00000],
      [4, 0x7f800000],
      [4, 0x3727c5ac], // 1e-05
      [5, s('[command]')],
      [6, s('(RIGHT)')],
      [8, s(',')],
      [5, s('[/command]')],
      [5, s('odd section')],
      [5, s('[]')],
      [7, s('a `quoted` }> <0::k`t`> {5=x}')],
      [9, 5],
      [10, s('')],
      [9, 6],
      [2, 1],
      [10, s('lone key')],
    ];
    const archive = openClassicArchiveBytes(archiveOf(records, table, { name_1: 'Sword' }), 'forms.pvf', { encoding: 'utf-8' });
    const text = archive.readText('test.equ').text;
    expect(text).toBe(
      [
        '#PVF_File',
        '',
        '[name]',
        '\t<0::name_1`Sword`>',
        '',
        '[rate]',
        '\t1.5\t-2',
        '\t{3=7}\t{4=-2147483648}\t{4=2143289344}\t{4=2139095040}\t1.0e-05',
        '',
        '[command]',
        '\t{6=`(RIGHT)`}',
        '\t{8=`,`}',
        '[/command]',
        '',
        '{5=`odd section`}',
        '',
        '[]',
        '\t`a ``quoted`` }> <0::k``t``> {5=x}`',
        '\t{9=5}',
        '\t{10=``}',
        '\t{9=6}\t1',
        '\t{10=`lone key`}',
        '',
      ].join('\n'),
    );
    expect(lexScript(text).tokens.map(showLexed)).toEqual([
      'open:name',
      '8:<0::name_1>',
      'open:rate',
      '2:1.5',
      '0:-2',
      '0:7',
      '2:-0',
      '2:NaN',
      '2:+Inf',
      '2:1e-05',
      'open:command',
      '6:(RIGHT)',
      '8:,',
      'close:command',
      '5:odd section',
      '3:[]',
      '6:a `quoted` }> <0::k`t`> {5=x}',
      '3:9=5}',
      '10:',
      '3:9=6}',
      '0:1',
      '10:lone key',
    ]);
    expect(checkScript(archive, 'test.equ')).toBe(records.length);
  });

  for (const encoding of ['utf-8', 'cp936']) {
    it(`every script of the samples archive (${encoding}): the real samples, a linked file, the registries`, () => {
      const archive = openClassicArchiveBytes(buildSampleArchive(encoding), `samples-${encoding}.pvf`);
      const scripts = archiveFiles(archive).filter((f) => archive.isCompiled(f, archive.readFile(f)));
      expect(scripts).toEqual(expect.arrayContaining([...SAMPLE_PATHS.map(([, p]) => p), LINKED_EQU]));
      let tokens = 0;
      for (const file of scripts) tokens += checkScript(archive, file);
      expect(tokens).toBeGreaterThan(1400);
    });
  }

  it('random token streams with hostile strings (backticks, brackets, braces, links, line breaks, CR, emoji)', () => {
    const piece = fc.constantFrom('`', '``', '>', '<', '::', '{', '}', '{5=', '{9=', '[', ']', '/', '\t', '\n', '\r', '\r\n', ' ', '#', 'a', 'Z', '中', '😀', '=', '5', '-', '.', '0', 'e');
    const hostile = fc.string({ unit: piece, maxLength: 12 });
    const plainKey = fc.constantFrom('name_1', 'equip_name_2', 'a b', '<x', 'k::y', '{k}', '[k]', '中文');
    const names = fc.constantFrom('a', 'b', 'usable job', 'x`y', '', '/', ' ');
    const int32 = fc.integer({ min: -2147483648, max: 2147483647 });
    type Piece = { kind: 'number'; type: number; value: number } | { kind: 'string'; type: number; text: string } | { kind: 'link'; id: number; key: string | null };
    const token: fc.Arbitrary<Piece> = fc.oneof(
      { weight: 3, arbitrary: int32.map((value) => ({ kind: 'number' as const, type: 2, value })) },
      { weight: 1, arbitrary: int32.map((value) => ({ kind: 'number' as const, type: 3, value })) },
      { weight: 2, arbitrary: fc.oneof(int32, fc.float({ noDefaultInfinity: false }).map((f) => new Int32Array(new Float32Array([f]).buffer)[0] as number)).map((value) => ({ kind: 'number' as const, type: 4, value })) },
      { weight: 3, arbitrary: fc.tuple(fc.boolean(), names).map(([close, name]) => ({ kind: 'string' as const, type: 5, text: `[${close ? '/' : ''}${name}]` })) },
      { weight: 1, arbitrary: hostile.map((text) => ({ kind: 'string' as const, type: 5, text })) },
      { weight: 3, arbitrary: fc.tuple(fc.constantFrom(6, 7, 7, 8, 10), hostile).map(([type, text]) => ({ kind: 'string' as const, type, text })) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(0, 1, 3, -1, 2147483647), fc.option(fc.oneof(plainKey, hostile), { nil: null })).map(([id, key]) => ({ kind: 'link' as const, id, key })) },
    );
    const strText = fc.array(fc.tuple(plainKey, hostile.map((t) => t.replace(/[\r\n]/g, ''))), { maxLength: 6 });

    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), strText, (pieces, texts) => {
        const table = new StringTableBuilder();
        const records: [number, number][] = [];
        for (const p of pieces) {
          if (p.kind === 'number') records.push([p.type, p.value]);
          else if (p.kind === 'string') records.push([p.type, table.indexOf(p.text)]);
          else {
            records.push([9, p.id]);
            if (p.key !== null) records.push([10, table.indexOf(p.key)]);
          }
        }
        const archive = openClassicArchiveBytes(archiveOf(records, table, Object.fromEntries(texts)), 'random.pvf', { encoding: 'utf-8' });
        expect(checkScript(archive, 'test.equ')).toBe(records.length);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the lexer rules for the classic forms (runtime/script/lex-script.ts)', () => {
  const show = (text: string) => lexScript(text).tokens.map((t) => `${showLexed(t)}@${t.start}-${t.end}`);

  it('reads a whole link as one token and anything short of one as before', () => {
    expect(show('<+03::k y`a``b>`>\t5')).toEqual(['8:<3::k y>@0-17', '0:5@18-19']);
    expect(show('<3::k``>')).toEqual(['8:<3::k>@0-8']);
    // No text, no `>` after it, an empty key, a bad id, a line break in the key, an unterminated text.
    expect(show('<3::k>')).toEqual(['3:<3::k>@0-6']);
    expect(show('<3::k`t` >')).toEqual(['3:<3::k@0-5', '6:t@5-8', '3:>@9-10']);
    expect(show('<3::`t`>')).toEqual(['3:<3::@0-4', '6:t@4-7', '3:>@7-8']);
    expect(show('<x::k`t`>')).toEqual(['3:<x::k@0-5', '6:t@5-8', '3:>@8-9']);
    expect(show('<99999999999::k`t`>')).toEqual(['3:<99999999999::k@0-15', '6:t@15-18', '3:>@18-19']);
    expect(show('<3::a\nb`t`>')).toEqual(['3:<3::a@0-5', '3:b@6-7', '6:t@7-10', '3:>@10-11']);
    expect(lexScript('<3::k`t').warnings.map((w) => w.code)).toEqual(['UNTERMINATED_STRING']);
  });

  it('reads {3=n} and {4=bits} as the number they stand for, other bodies as pvfine does', () => {
    expect(show('{3= -7 } {4=1069547520} {4=2139095040} {4=-8388608}')).toEqual(['0:-7@0-8', '2:1.5@9-23', '2:+Inf@24-38', '2:-Inf@39-51']);
    expect(show('{3=`7`} {4=x}')).toEqual(['3:3=@1-3', '6:7@3-6', '3:}@6-7', '3:4=x}@9-13']);
    expect(show('{3=99999999999}')).toEqual(['3:3=99999999999}@1-15']);
    expect(lexScript('{3=1').warnings).toEqual([]);
  });

  it('reads {6=…} as a block string, with the warning of an unclosed one', () => {
    expect(show('{6=`(RIGHT)`} {6= x }')).toEqual(['6:(RIGHT)@0-13', '6:x@14-21']);
    expect(lexScript('{6=`x`').warnings.map((w) => w.code)).toEqual(['UNCLOSED_BLOCK']);
  });

  it('reads lines full of almost-links and number markers to the end, one token per repeat', () => {
    const cases: [string, number][] = [
      ['<0::a '.repeat(100_000), 100_000],
      ['<0::a`'.repeat(100_000), 100_000],
      ['<0::a`b` '.repeat(100_000), 200_000],
      ['{3=x '.repeat(100_000) + '}', 100_001],
      ['{4='.repeat(100_000), 100_000],
    ];
    for (const [text, count] of cases) {
      const { tokens, warnings } = lexScript(text);
      expect(tokens, text.slice(0, 8)).toHaveLength(count);
      expect(Math.max(tokens.at(-1)?.end ?? 0, warnings.at(-1)?.end ?? 0)).toBe(text.trimEnd().length);
    }
  });
});

/**
 * An archive with `test.equ` (these records), `stringtable.bin`, and `n_string.lst` naming `t.str`
 * for tables 0, 1 and 3 (UTF-8), which holds `strTable`.
 */
function archiveOf(records: readonly [number, number][], table: StringTableBuilder, strTable: Record<string, string>): Buffer {
  const compiled = (rs: readonly [number, number][]): Buffer => {
    const out = Buffer.alloc(2 + 5 * rs.length);
    out[0] = 0xb0;
    out[1] = 0xd0;
    rs.forEach(([type, value], k) => {
      out[2 + 5 * k] = type;
      out.writeInt32LE(value | 0, 3 + 5 * k);
    });
    return out;
  };
  const script = compiled(records);
  const nString = compiled([0, 1, 3].flatMap((id): [number, number][] => [[2, id], [7, table.indexOf('t.str')]]));
  const str = Object.entries(strTable)
    .map(([key, text]) => `${key}>${text}\n`)
    .join('');
  return buildClassicArchive([
    { path: 'test.equ', data: script },
    { path: 'n_string.lst', data: nString },
    { path: 't.str', data: encodeText(str, 'utf-8') },
    { path: 'stringtable.bin', data: table.toBytes('utf-8') },
  ]);
}
