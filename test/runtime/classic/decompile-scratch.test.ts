/**
 * The decompiler's reused memory (DecompileScratch) and the archive's memo (DecompileMemo) carry no
 * state from one file into the next: a file decompiles to the same text whatever was read before it.
 * Found by the explain comparison of folder and classic archives: the per-name stacks that pair
 * `[x]` with `[/x]` were replaced, not grown, when a tag name first met in the middle of a file took
 * the name count past their size, so the sections opened before it lost their closing tags on that
 * one read.
 */
import { describe, expect, it } from 'vitest';
import { DecompileMemo } from '../../../runtime/classic/decompile-memo.js';
import { DecompileScratch, decompileScript } from '../../../runtime/classic/decompile.js';
import { TokenType, type ScriptTokens } from '../../../runtime/classic/script-tokens.js';

/** A token stream of section tags (strings of the table below) and integers after each opening tag. */
function tagTokens(strings: string[], tags: string[]): ScriptTokens {
  const types: number[] = [];
  const values: number[] = [];
  for (const tag of tags) {
    let index = strings.indexOf(tag);
    if (index < 0) index = strings.push(tag) - 1;
    types.push(TokenType.Section);
    values.push(index);
    if (!tag.startsWith('[/')) {
      types.push(TokenType.Int);
      values.push(tags.indexOf(tag));
    }
  }
  return { count: types.length, types: Uint8Array.from(types), values: Int32Array.from(values) };
}

function decompile(strings: string[], tokens: ScriptTokens, memo?: DecompileMemo, scratch?: DecompileScratch): string {
  const context = { archive: 'test.pvf', path: 'x.mob', stringCount: strings.length, string: (i: number) => strings[i] as string, linkText: () => ({ missing: 'none' }) };
  return decompileScript(tokens, context, memo, scratch).text;
}

describe('decompiling with a shared memo and scratch', () => {
  it('pairs a closing tag whose opener came before a name that grew the per-name stacks', () => {
    const strings: string[] = [];
    // A file that pairs [jump attack] around a tag name the archive has not seen yet.
    const target = tagTokens(strings, ['[jump attack]', '[attack index]', '[start frame index]', '[/jump attack]', '[end]']);
    const alone = decompile([...strings], target);
    expect(alone).toContain('[jump attack]\n\t0\n\t[attack index]');

    // Earlier files of the archive met 254 other names: the target's two new names are ids 255 and 256.
    const memo = new DecompileMemo();
    const scratch = new DecompileScratch();
    const others = Array.from({ length: 254 }, (_, k) => `[other ${k}]`);
    const before = tagTokens(strings, others);
    decompile(strings, before, memo, scratch);
    const fresh = tagTokens(strings, ['[jump attack]', '[attack index]', '[start frame index]', '[/jump attack]', '[end]']);
    expect(decompile(strings, fresh, memo, scratch)).toBe(alone);
    expect(decompile(strings, fresh, memo, scratch)).toBe(alone);
  });

  it('leaves no open section behind when a bad string index stops a file', () => {
    const strings = ['[a]', '[x]', '[/a]'];
    const memo = new DecompileMemo();
    const scratch = new DecompileScratch();
    const broken: ScriptTokens = { count: 3, types: Uint8Array.of(TokenType.Section, TokenType.Int, TokenType.Section), values: Int32Array.of(0, 1, 99) };
    expect(() => decompile(strings, broken, memo, scratch)).toThrow(/refers to string 99/);
    // [/a] here closes nothing: the [a] of the failed file must not pair with it.
    const next: ScriptTokens = { count: 4, types: Uint8Array.of(TokenType.Section, TokenType.Int, TokenType.Section, TokenType.Section), values: Int32Array.of(1, 7, 2, 1) };
    expect(decompile(strings, next, memo, scratch)).toBe(decompile(strings, next));
  });

  it('gives every file of a sequence the text it has alone, whatever came before', () => {
    const strings: string[] = [];
    const files = Array.from({ length: 40 }, (_, f) => {
      const tags: string[] = [];
      for (let k = 0; k < 12; k++) tags.push(`[t${f * 7 + k}]`);
      tags.push(`[/t${f * 7}]`, `[/t${f * 7 + 5}]`);
      return tagTokens(strings, tags);
    });
    const alone = files.map((tokens) => decompile(strings, tokens));
    const memo = new DecompileMemo();
    const scratch = new DecompileScratch();
    expect(files.map((tokens) => decompile(strings, tokens, memo, scratch))).toEqual(alone);
  });
});
