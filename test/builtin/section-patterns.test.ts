/**
 * Builtin `target.sectionPattern`s stay narrow. Search takes a pattern rule as describing every
 * section name it fits (the `section` filter returns it, and "no definition has section …" is never
 * said for such a name), so one catch-all pattern would put its rule into every section query and
 * silence the unknown-section help for all of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { matchSectionPattern } from '../../runtime/script/match-glob.js';

const ANNOTATIONS = fileURLToPath(new URL('../../rules/builtin/annotations/', import.meta.url));

/** Ordinary section names of several file types, and a misspelling: no builtin pattern may fit them. */
const ORDINARY_NAMES = ['name', 'rarity', 'rarety', 'attack info', 'extra note', 'level info', 'physical attack', 'move speed'];

function builtinPatterns(): { id: string; pattern: string }[] {
  const out: { id: string; pattern: string }[] = [];
  for (const file of readdirSync(ANNOTATIONS).filter((f) => f.endsWith('.json'))) {
    const layer = JSON.parse(readFileSync(path.join(ANNOTATIONS, file), 'utf8')) as { rules?: { id: string; target?: { sectionPattern?: string } }[] };
    for (const rule of layer.rules ?? []) if (rule.target?.sectionPattern !== undefined) out.push({ id: rule.id, pattern: rule.target.sectionPattern });
  }
  return out;
}

describe('builtin section patterns', () => {
  it('exist (so this test checks something)', () => {
    expect(builtinPatterns().length).toBeGreaterThan(0);
  });

  it('fit no ordinary section name', () => {
    const wide = builtinPatterns().flatMap(({ id, pattern }) => ORDINARY_NAMES.filter((name) => matchSectionPattern(pattern, name)).map((name) => `${id} (${pattern}) fits [${name}]`));
    expect(wide).toEqual([]);
  });

  it('would catch a catch-all pattern', () => {
    expect(matchSectionPattern('[a-z]*', 'extra note')).toBe(true);
  });
});
