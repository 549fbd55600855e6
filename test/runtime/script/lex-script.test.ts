import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexScript, type LexToken } from '../../../runtime/script/lex-script.js';

/** Tokens as compact strings: open/close tags by name, values as type:value@start-end. */
function show(tokens: readonly LexToken[]): string[] {
  return tokens.map((t) => (t.kind === 'value' ? `${t.type}:${t.value}@${t.start}-${t.end}` : `${t.kind === 'open' ? '' : '/'}[${t.name}]@${t.start}-${t.end}`));
}

describe('lexScript: tokens', () => {
  it('splits tags, numbers, words and strings with UTF-16 spans', () => {
    expect(show(lexScript('[rarity]\n\t4\t+5\t1.50\tword').tokens)).toEqual(['[rarity]@0-8', '0:4@10-11', '0:5@12-14', '2:1.5@15-19', '3:word@20-24']);
  });

  it('gives the §3.3 string token [7, 12) for [name] then a string with an emoji and a CJK character', () => {
    expect(show(lexScript('[name]\n`😀中`').tokens)).toEqual(['[name]@0-6', '6:😀中@7-12']);
  });

  it('unescapes doubled backticks and keeps the quotes in the span', () => {
    expect(show(lexScript('`a``b`').tokens)).toEqual(['6:a`b@0-6']);
    expect(show(lexScript('``').tokens)).toEqual(['6:@0-2']);
  });

  it('reads closing tags and keeps section names as written', () => {
    expect(show(lexScript('[Usable Job] [/Usable Job]').tokens)).toEqual(['[Usable Job]@0-12', '/[Usable Job]@13-26']);
  });

  it('lexes [] and [/] as type-3 values, not tags', () => {
    expect(show(lexScript('[] [/]').tokens)).toEqual(['3:[]@0-2', '3:[/]@3-6']);
  });

  it('lets a tag cross lines up to the next ]', () => {
    expect(show(lexScript('[a\nb]').tokens)).toEqual(['[a\nb]@0-5']);
  });

  it('reads {5=…} {7=…} {8=…} {10=…} block strings, unwrapping one backtick string', () => {
    const tokens = lexScript('{5=`a}b`} {7= plain } {8=`<1::k>`} {10=`x``y`}').tokens;
    expect(show(tokens)).toEqual(['5:a}b@0-9', '7:plain@10-21', '8:<1::k>@22-34', '10:x`y@35-46']);
  });

  it('finds the } of a block string outside backtick runs, doubled backticks included', () => {
    expect(show(lexScript('{5=`x``}`}').tokens)).toEqual(['5:x`}@0-10']);
    expect(lexScript('{5=`x``}`b`}').warnings.map((w) => w.code)).toEqual(['UNCLOSED_BLOCK', 'UNTERMINATED_STRING']);
  });

  it('skips a { that starts no block string and lexes on after it', () => {
    expect(show(lexScript('{abc} {9=1}').tokens)).toEqual(['3:abc}@1-5', '3:9=1}@7-11']);
  });

  it('ends a bare word at whitespace, a backtick, { or [ but not at ], } or #', () => {
    expect(show(lexScript('a]#b}c`s`d[x]').tokens)).toEqual(['3:a]#b}c@0-6', '6:s@6-9', '3:d@9-10', '[x]@10-13']);
  });

  it('skips # comments at the start of a lexeme up to the end of the line', () => {
    const result = lexScript('#PVF_File\n[a] 1 # note\n2');
    expect(show(result.tokens)).toEqual(['[a]@10-13', '0:1@14-15', '0:2@23-24']);
    expect(result.comments).toEqual([
      { start: 0, end: 9 },
      { start: 16, end: 22 },
    ]);
  });

  it('treats \\v, \\f and \\r as whitespace and other spaces (U+00A0, U+3000) as word characters', () => {
    expect(show(lexScript('1\v2\f3\r4').tokens)).toEqual(['0:1@0-1', '0:2@2-3', '0:3@4-5', '0:4@6-7']);
    expect(show(lexScript('1\u00a02\u30003').tokens)).toEqual(['3:1\u00a02\u30003@0-5']);
  });
});

describe('lexScript: warnings', () => {
  it('reports an unterminated backtick string, which runs to the end of the text', () => {
    const result = lexScript('[a]\n`open\n[b] 1');
    expect(show(result.tokens)).toEqual(['[a]@0-3', '6:open\n[b] 1@4-15']);
    expect(result.warnings).toEqual([{ code: 'UNTERMINATED_STRING', message: expect.any(String), start: 4, end: 15 }]);
  });

  it('reports a [ without ] and lexes on after it', () => {
    const result = lexScript('1 [abc 2');
    expect(show(result.tokens)).toEqual(['0:1@0-1', '3:abc@3-6', '0:2@7-8']);
    expect(result.warnings).toEqual([{ code: 'UNCLOSED_TAG', message: expect.any(String), start: 2, end: 3 }]);
  });

  it('reports a block string marker without its }', () => {
    const result = lexScript('{5=`text`');
    expect(show(result.tokens)).toEqual(['3:5=@1-3', '6:text@3-9']);
    expect(result.warnings.map((w) => [w.code, w.start, w.end])).toEqual([['UNCLOSED_BLOCK', 0, 3]]);
  });
});

describe('lexScript: robustness', () => {
  const scriptUnit = fc.constantFrom('[', ']', '/', '`', '``', '{', '}', '{5=', '{10=', '#', '\n', '\r', ' ', '\t', '-1', '1.5', '1e39', 'a', 'x', '😀', '中', '\ud800', '\udc00', '0x1p-2', '_');

  function checkInvariants(text: string): void {
    const { tokens, comments, warnings } = lexScript(text);
    let last = 0;
    for (const token of [...tokens, ...comments].sort((a, b) => a.start - b.start)) {
      expect(token.start).toBeGreaterThanOrEqual(last);
      expect(token.end).toBeGreaterThan(token.start);
      expect(token.end).toBeLessThanOrEqual(text.length);
      last = token.end;
    }
    for (const warning of warnings) {
      expect(warning.start).toBeGreaterThanOrEqual(0);
      expect(warning.end).toBeLessThanOrEqual(text.length);
    }
  }

  it('never throws on arbitrary Unicode and keeps spans ordered, non-empty and inside the text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkInvariants), { numRuns: 500 });
  });

  it('never throws on script-like fragments, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: scriptUnit, maxLength: 120 }), checkInvariants), { numRuns: 1000 });
  });

  it('lexes long runs of unclosed [ and { markers to the end of the input', () => {
    // Each input is one unterminated construct: the lexer must reach the end, not give up or backtrack.
    for (const text of ['['.repeat(200_000), '{5='.repeat(100_000), `${'{'.repeat(200_000)}}`, `${'{5=`'.repeat(50_001)}}`]) {
      const { tokens, warnings } = lexScript(text);
      expect(Math.max(tokens.at(-1)?.end ?? 0, warnings.at(-1)?.end ?? 0), text.slice(0, 8)).toBe(text.trimEnd().length);
    }
  });
});
