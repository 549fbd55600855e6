import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extensionOf } from '../../../runtime/script/archive-path.js';
import { globError, matchesDefinition, matchGlob, matchKey } from '../../../runtime/script/match-glob.js';

describe('matchKey', () => {
  it('turns backslashes into slashes, strips outer slashes and lower-cases', () => {
    expect(matchKey('\\Equipment\\Character\\Sword.EQU/')).toBe('equipment/character/sword.equ');
    expect(matchKey('//a//b//')).toBe('a//b');
    expect(matchKey('/')).toBe('');
  });
});

describe('extensionOf', () => {
  it('returns the lower-cased last extension of the last segment, dot included', () => {
    expect(extensionOf('equipment/Sword.EQU')).toBe('.equ');
    expect(extensionOf('a/b.tar.gz')).toBe('.gz');
    expect(extensionOf('dir.d/file')).toBe('');
    expect(extensionOf('a/.hidden')).toBe('.hidden');
    expect(extensionOf('file.')).toBe('.');
    expect(extensionOf('')).toBe('');
  });
});

describe('matchGlob: rule-format examples', () => {
  it('matches equipment/** against the folder itself, a sub-folder and any file below', () => {
    expect(matchGlob('equipment/**', 'equipment')).toBe(true);
    expect(matchGlob('equipment/**', 'equipment/character')).toBe(true);
    expect(matchGlob('equipment/**', 'equipment/character/swordman/sword.equ')).toBe(true);
    expect(matchGlob('equipment/**', 'equipmentx/a.equ')).toBe(false);
    expect(matchGlob('equipment/**', 'stackable/equipment/a.stk')).toBe(false);
  });

  it('matches an exact path only', () => {
    expect(matchGlob('etc/itemdropinfo_monster_hell.etc', 'etc/itemdropinfo_monster_hell.etc')).toBe(true);
    expect(matchGlob('etc/itemdropinfo_monster_hell.etc', 'etc/itemdropinfo_monster_hell.etc2')).toBe(false);
    expect(matchGlob('etc/itemdropinfo_monster_hell.etc', 'x/etc/itemdropinfo_monster_hell.etc')).toBe(false);
  });
});

describe('matchGlob: ** segments', () => {
  it('puts ** at the start, in the middle and at the end', () => {
    expect(matchGlob('**/*.equ', 'a.equ')).toBe(true);
    expect(matchGlob('**/*.equ', 'equipment/character/a.equ')).toBe(true);
    expect(matchGlob('**/*.equ', 'equipment/character/a.stk')).toBe(false);
    expect(matchGlob('equipment/**/*.equ', 'equipment/a.equ')).toBe(true);
    expect(matchGlob('equipment/**/*.equ', 'equipment/x/y/z/a.equ')).toBe(true);
    expect(matchGlob('equipment/**/avatar/*', 'equipment/character/avatar/cap.equ')).toBe(true);
    expect(matchGlob('equipment/**/avatar/*', 'equipment/character/avatar')).toBe(false);
    expect(matchGlob('**', '')).toBe(true);
    expect(matchGlob('**', 'any/depth/at/all')).toBe(true);
  });

  it('treats ** only as a whole segment; inside a segment it is a plain star', () => {
    expect(matchGlob('a**b', 'axxb')).toBe(true);
    expect(matchGlob('a**b', 'ax/xb')).toBe(false);
  });

  it('requires the whole path to be consumed', () => {
    expect(matchGlob('equipment/*', 'equipment/character/a.equ')).toBe(false);
    expect(matchGlob('equipment', 'equipment/a.equ')).toBe(false);
    expect(matchGlob('*', 'a')).toBe(true);
    expect(matchGlob('*', '')).toBe(true);
    expect(matchGlob('?', '')).toBe(false);
  });
});

describe('matchGlob: case and separators', () => {
  it('is case-insensitive in both pattern and path', () => {
    expect(matchGlob('Equipment/*.EQU', 'equipment/sword.equ')).toBe(true);
    expect(matchGlob('equipment/*.equ', 'EQUIPMENT/SWORD.EQU')).toBe(true);
    expect(matchGlob('[A-C]*', 'beta')).toBe(true);
  });

  it('reads backslashes as separators, never as escapes', () => {
    expect(matchGlob('equipment\\*.equ', 'equipment/a.equ')).toBe(true);
    expect(matchGlob('equipment/*.equ', 'equipment\\a.equ')).toBe(true);
    expect(matchGlob('a\\*b', 'a*b')).toBe(false);
    expect(matchGlob('a\\*b', 'a/xb')).toBe(true);
    expect(matchGlob('/equipment/**/', '\\equipment\\a\\')).toBe(true);
  });
});

describe('matchGlob: Go path.Match cases within a segment', () => {
  const cases: [string, string, boolean][] = [
    ['abc', 'abc', true],
    ['*', 'abc', true],
    ['*c', 'abc', true],
    ['a*', 'a', true],
    ['a*', 'abc', true],
    ['a*', 'ab/c', false],
    ['a*/b', 'abc/b', true],
    ['a*/b', 'a/c/b', false],
    ['a*b*c*d*e*/f', 'axbxcxdxe/f', true],
    ['a*b*c*d*e*/f', 'axbxcxdxexxx/f', true],
    ['a*b*c*d*e*/f', 'axbxcxdxe/xxx/f', false],
    ['a*b*c*d*e*/f', 'axbxcxdxexxx/fff', false],
    ['a*b?c*x', 'abxbbxdbxebxczzx', true],
    ['a*b?c*x', 'abxbbxdbxebxczzy', false],
    ['ab[c]', 'abc', true],
    ['ab[b-d]', 'abc', true],
    ['ab[e-g]', 'abc', false],
    ['ab[^c]', 'abc', false],
    ['ab[^b-d]', 'abc', false],
    ['ab[^e-g]', 'abc', true],
    ['a?b', 'a☺b', true],
    ['a[^a]b', 'a☺b', true],
    ['a???b', 'a☺b', false],
    ['a[^a][^a][^a]b', 'a☺b', false],
    ['[a-ζ]*', 'α', true],
    ['a?b', 'a/b', false],
    ['a*b', 'a/b', false],
    ['*x', 'xxx', true],
    // One code point, not one UTF-16 unit.
    ['?', '😀', true],
    ['??', '😀', false],
    // `]` outside a class and `^`/`-` outside a class are literals; `*` inside a class is a member.
    ['a]b', 'a]b', true],
    ['a-^', 'a-^', true],
    ['[*]', '*', true],
    ['[*]', 'x', false],
    // `!` is not a negation in Go.
    ['[!a]', '!', true],
    ['[!a]', 'b', false],
    // An empty pattern segment matches only an empty path segment.
    ['a//b', 'a//b', true],
    ['a//b', 'a/x/b', false],
  ];
  it.each(cases)('matchGlob(%j, %j) is %s', (pattern, path, expected) => {
    expect(globError(pattern)).toBeNull();
    expect(matchGlob(pattern, path)).toBe(expected);
  });
});

describe('globError', () => {
  it('accepts valid patterns, including empty ones and **', () => {
    for (const pattern of ['', '**', 'equipment/**/*.equ', 'a[b-d]?*', '[^a]', '[a-z0-9_]*', '[[]', '[z-a]', 'a//b']) {
      expect(globError(pattern)).toBeNull();
    }
  });

  const bad: [string, RegExp][] = [
    ['[', /unclosed "\[" class/],
    ['[^', /unclosed "\[" class/],
    ['[^bc', /unclosed "\[" class/],
    ['a[', /unclosed "\[" class/],
    ['a/b[', /in segment "b\["/],
    ['[]a]', /empty "\[\]" class/],
    ['[^]', /empty "\[\]" class/],
    ['[-]', /"-" where a class member was expected/],
    ['[-x]', /"-" where a class member was expected/],
    ['[x-]', /range without an upper end/],
    ['[a-b-c]', /"-" where a class member was expected/],
    ['[a--]', /upper end is "-"/],
    ['ok/**/x[', /in segment "x\["/],
  ];
  it.each(bad)('reports %j as a Go ErrBadPattern with the reason', (pattern, reason) => {
    const error = globError(pattern);
    expect(error).toMatch(/^syntax error in pattern/);
    expect(error).toMatch(reason);
    expect(matchGlob(pattern, pattern)).toBe(false);
  });
});

describe('matchGlob: adversarial inputs', () => {
  it('finishes star-heavy segments that do not match', () => {
    const path = 'a'.repeat(5000);
    expect(matchGlob('*a*a*a*a*a*a*a*a*a*a*a*b', path)).toBe(false);
    expect(matchGlob('*a*a*a*a*a*a*a*a*a*a*a*a', path)).toBe(true);
  });

  it('finishes many ** segments over a deep path', () => {
    const pattern = Array.from({ length: 200 }, () => '**').join('/') + '/x';
    const deep = Array.from({ length: 2000 }, () => 'a').join('/');
    expect(matchGlob(pattern, deep)).toBe(false);
    expect(matchGlob(pattern, `${deep}/x`)).toBe(true);
    const alternating = Array.from({ length: 100 }, () => '**/a').join('/') + '/b';
    expect(matchGlob(alternating, deep)).toBe(false);
  });

  it('never throws on arbitrary strings', () => {
    const part = fc.oneof(fc.string(), fc.constantFrom('*', '**', '?', '[', ']', '^', '-', '/', '\\', 'a', '😀'));
    const glob = fc.array(part, { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(glob, fc.string(), (pattern, path) => {
        const result = matchGlob(pattern, path);
        expect(typeof result).toBe('boolean');
        const error = globError(pattern);
        if (error !== null) expect(result).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('matchGlob: agrees with a regular-expression model', () => {
  // Patterns are generated as syntax trees and rendered both as a glob and as an anchored RegExp over
  // "/" + path, where each plain segment consumes "/segment" and "**" consumes zero or more of them.
  const cp = (c: string): string => `\\u{${(c.codePointAt(0) as number).toString(16)}}`;
  const member = fc.constantFrom('a', 'b', 'c', '.', 'é');
  const item = fc.oneof(
    fc.constantFrom('a', 'b', 'B', '.', ']', '-', '^', 'é').map((c) => ({ glob: c, re: cp(c.toLowerCase()) })),
    fc.constant({ glob: '*', re: '[^/]*' }),
    fc.constant({ glob: '?', re: '[^/]' }),
    fc
      .tuple(fc.boolean(), fc.array(fc.tuple(member, fc.option(member, { nil: undefined })), { minLength: 1, maxLength: 3 }))
      .map(([negated, ranges]) => {
        const glob = `[${negated ? '^' : ''}${ranges.map(([lo, hi]) => (hi === undefined ? lo : `${lo}-${hi}`)).join('')}]`;
        const alternatives = ranges
          .filter(([lo, hi]) => hi === undefined || (lo.codePointAt(0) as number) <= (hi.codePointAt(0) as number))
          .map(([lo, hi]) => `[${cp(lo)}-${cp(hi ?? lo)}]`);
        const any = alternatives.length === 0 ? '(?!)' : `(?:${alternatives.join('|')})`;
        // A range such as ".-a" spans "/", which never occurs inside a segment.
        return { glob, re: negated ? `(?:(?!${any})[^/])` : `(?:(?!/)${any})` };
      }),
  );
  const globstar = { glob: '**', re: '(?:/[^/]*)*' };
  const segment = fc.oneof(
    { weight: 1, arbitrary: fc.constant(globstar) },
    {
      weight: 4,
      arbitrary: fc.array(item, { maxLength: 4 }).map((items) => {
        const glob = items.map((i) => i.glob).join('');
        // Two generated stars form a whole "**" segment, which is a globstar.
        return glob === '**' ? globstar : { glob, re: `/${items.map((i) => i.re).join('')}` };
      }),
    },
  );
  // Normalisation strips outer slashes, so leave out patterns that start or end with an empty segment.
  const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).filter((segments) => {
    const glob = segments.map((s) => s.glob).join('/');
    return !glob.startsWith('/') && !glob.endsWith('/');
  });
  const path = fc.array(fc.constantFrom('a', 'b', 'A', 'c', '.', ']', '-', '^', 'é', '/'), { maxLength: 10 }).map((cs) => cs.join(''));

  it('gives the same answer as the model for generated patterns and paths', () => {
    fc.assert(
      fc.property(pattern, path, (segments, rawPath) => {
        const glob = segments.map((s) => s.glob).join('/');
        expect(globError(glob)).toBeNull();
        const model = new RegExp(`^${segments.map((s) => s.re).join('')}$`, 'u');
        expect(matchGlob(glob, rawPath)).toBe(model.test(`/${matchKey(rawPath)}`));
      }),
      { numRuns: 500 },
    );
  });
});

describe('matchesDefinition', () => {
  it('passes every file and folder with an empty match', () => {
    expect(matchesDefinition({ extensions: [], glob: '' }, 'x/y.equ', false)).toBe(true);
    expect(matchesDefinition({ extensions: [], glob: '' }, 'x', true)).toBe(true);
  });

  it('compares the final extension case-insensitively and never matches folders', () => {
    const match = { extensions: ['.EQU', '.stk'], glob: '' };
    expect(matchesDefinition(match, 'equipment/Sword.equ', false)).toBe(true);
    expect(matchesDefinition(match, 'stackable\\A.STK', false)).toBe(true);
    expect(matchesDefinition(match, 'equipment/sword.equ.bak', false)).toBe(false);
    expect(matchesDefinition(match, 'equipment.equ', true)).toBe(false);
    expect(matchesDefinition({ extensions: ['.tar.gz'], glob: '' }, 'a.tar.gz', false)).toBe(false);
  });

  it('requires both the extension and the glob when both are given', () => {
    const match = { extensions: ['.equ'], glob: 'equipment/**' };
    expect(matchesDefinition(match, 'equipment/a/b.equ', false)).toBe(true);
    expect(matchesDefinition(match, 'stackable/b.equ', false)).toBe(false);
    expect(matchesDefinition(match, 'equipment/a/b.stk', false)).toBe(false);
  });

  it('lets a glob-only match apply to folders', () => {
    expect(matchesDefinition({ extensions: [], glob: 'equipment/**' }, 'equipment/character', true)).toBe(true);
  });
});
