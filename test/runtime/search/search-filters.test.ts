import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { linearSearch, mergeImplicitRules } from '../../../bench/linear-scan.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../../runtime/bundle/schema.js';
import { statusIn } from '../../../runtime/search/search-documents.js';
import { errorOf, fixtureBundle, itemNamed, names, search, searchAll } from './helpers.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
});

/** Sorted rule/field names of every match (all pages). */
function matchNames(input: Parameters<typeof search>[1], options?: Parameters<typeof search>[2]): string[] {
  return names(searchAll(bundle, { limit: 100, ...input }, options).items).sort();
}

describe('search: filePath', () => {
  it('returns only definitions whose match applies to a file path, each marked matched by filePath', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', filePath: 'Equipment\\Character\\Sword.EQU', limit: 100 });
    const got = names(out.items);
    expect(got).toEqual(expect.arrayContaining([
      'path.equipment', 'path.equ-file', 'section.price', 'token.price', 'token.name', 'field equ.rarity', 'field:equ.rarity',
    ]));
    // Other folders' globs and other extensions do not apply.
    expect(got).not.toContain('path.stackable');
    expect(got).not.toContain('token.stack-limit');
    for (const item of out.items) {
      expect(item.applicability).toBe('matched');
      expect(item.matchReasons).toContain('filePath');
    }
  });

  it('normalises the path the way the matcher does and reports it in the context', () => {
    const out = search(bundle, { pvfVersion: '90US', filePath: '/Stackable/Potion/HP.STK' });
    expect(out.context.filePath).toBe('stackable/potion/hp.stk');
    const got = matchNames({ pvfVersion: '90US', filePath: '/Stackable/Potion/HP.STK' });
    expect(got).toEqual(expect.arrayContaining(['path.stackable', 'token.stack-limit', 'section.price', 'token.name']));
    expect(got).not.toContain('token.price');
    expect(got).not.toContain('path.equ-file');
  });

  it('accepts a path of a file that does not exist yet', () => {
    expect(matchNames({ pvfVersion: '90US', filePath: 'equipment/new/not-yet-created.equ' })).toContain('path.equ-file');
  });

  it('with pathKind directory returns only path rules whose match fits the folder', () => {
    expect(matchNames({ pvfVersion: '90US', filePath: 'equipment', pathKind: 'directory' })).toEqual(['path.equipment']);
    expect(matchNames({ pvfVersion: '90US', filePath: 'equipment/character', pathKind: 'directory' })).toEqual(['path.equipment']);
    expect(matchNames({ pvfVersion: '90US', filePath: 'stackable', pathKind: 'directory' })).toEqual(['path.stackable']);
    expect(matchNames({ pvfVersion: '90US', filePath: 'monster', pathKind: 'directory' })).toEqual([]);
  });

  it('with pathKind directory never returns a rule limited by extensions, even for a folder named like a file', () => {
    expect(matchNames({ pvfVersion: '90US', filePath: 'equipment/odd.equ', pathKind: 'directory' })).toEqual(['path.equipment']);
  });
});

describe('search: extensions', () => {
  it('marks a rule with an explicit matching extension as matched', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', extensions: ['.stk'], limit: 100 });
    const price = itemNamed(out.items, 'section.price');
    expect(price.applicability).toBe('matched');
    expect(price.matchReasons).toContain('extensions');
  });

  it('marks a glob-only rule as unknown rather than matched', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', extensions: ['.stk'], limit: 100 });
    expect(itemNamed(out.items, 'token.stack-limit').applicability).toBe('unknown');
    expect(itemNamed(out.items, 'path.stackable').applicability).toBe('unknown');
  });

  it('keeps rules without any match restriction as matched candidates', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', extensions: ['.stk'], limit: 100 });
    expect(itemNamed(out.items, 'token.name').applicability).toBe('matched');
  });

  it('filters out rules limited to other extensions', () => {
    const got = matchNames({ pvfVersion: '90US', extensions: ['.stk'] });
    expect(got).not.toContain('token.price');
    expect(got).not.toContain('path.equ-file');
    expect(got).not.toContain('field equ.rarity');
  });

  it('takes any of several extensions (OR) and compares them case-insensitively', () => {
    const got = matchNames({ pvfVersion: '90US', extensions: ['.STK', '.Equ'] });
    expect(got).toEqual(expect.arrayContaining(['token.price', 'token.stack-limit', 'field equ.rarity']));
    expect(matchNames({ pvfVersion: '90US', extensions: ['.EQU'] })).toEqual(matchNames({ pvfVersion: '90US', extensions: ['.equ'] }));
  });

  it('rejects an extension without its dot as INVALID_ARGUMENT', () => {
    expect(() => search(bundle, { pvfVersion: '90US', extensions: ['stk'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('together with filePath requires the file to have one of the extensions', () => {
    expect(matchNames({ pvfVersion: '90US', filePath: 'equipment/a.equ', extensions: ['.stk'] })).toEqual([]);
    const out = searchAll(bundle, { pvfVersion: '90US', filePath: 'stackable/x/y.stk', extensions: ['.stk'], limit: 100 });
    // The real path proves the glob applies.
    expect(itemNamed(out.items, 'token.stack-limit').applicability).toBe('matched');
  });
});

describe('search: section', () => {
  it('matches the target section with or without brackets, ignoring case', () => {
    const plain = matchNames({ pvfVersion: '90US', section: 'price' });
    expect(plain).toEqual(['section.price', 'token.price']);
    expect(matchNames({ pvfVersion: '90US', section: '[price]' })).toEqual(plain);
    expect(matchNames({ pvfVersion: '90US', section: '[PRICE]' })).toEqual(plain);
    expect(matchNames({ pvfVersion: '90US', section: ' Price ' })).toEqual(plain);
  });

  it('does not treat the section as a path and never returns path rules', () => {
    expect(matchNames({ pvfVersion: '90US', section: 'equipment' })).toEqual(['ref.equip']);
  });

  it('matches a section name containing spaces exactly, not by word', () => {
    expect(matchNames({ pvfVersion: '90US', section: '[physical attack]' })).toEqual(['rule.attack-uses-field', 'field equ.attack'].sort());
    expect(matchNames({ pvfVersion: '90US', section: 'attack' })).toEqual([]);
  });

  it('lists the section in matchReasons', () => {
    for (const item of search(bundle, { pvfVersion: '90US', section: 'price' }).items) expect(item.matchReasons).toContain('section');
  });
});

describe('search: kinds, targetKinds, annotationTypes, relation', () => {
  it('kinds ["field"] returns only shared fields', () => {
    expect(matchNames({ pvfVersion: '90US', kinds: ['field'] })).toEqual(['field colors', 'field equ.attack', 'field equ.rarity', 'field zz.tie']);
  });

  it('kinds ["rule"] returns configured and generated rules but no field', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', kinds: ['rule'], limit: 100 });
    expect(out.items.every((i) => i.kind === 'rule' && i.ruleId !== null)).toBe(true);
    expect(names(out.items)).toContain('field:equ.rarity');
  });

  it('targetKinds ["path"] returns only path rules', () => {
    expect(matchNames({ pvfVersion: '90US', targetKinds: ['path'] })).toEqual(['path.equ-file', 'path.equipment', 'path.stackable']);
  });

  it('targetKinds takes any of its entries (OR)', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', targetKinds: ['path', 'section'], limit: 100 });
    expect(new Set(out.items.map((i) => i.targetKind))).toEqual(new Set(['path', 'section']));
    expect(names(out.items)).toEqual(expect.arrayContaining(['path.equipment', 'section.price', 'user.note']));
  });

  it('annotationTypes ["enum"] returns only enum definitions', () => {
    expect(matchNames({ pvfVersion: '90US', annotationTypes: ['enum'] })).toEqual(['field colors', 'field equ.rarity', 'field:colors', 'field:equ.rarity']);
  });

  it('annotationTypes takes any of its entries (OR)', () => {
    expect(matchNames({ pvfVersion: '90US', annotationTypes: ['enum', 'reference'] })).toEqual(
      ['field colors', 'field equ.rarity', 'field:colors', 'field:equ.rarity', 'ref.any', 'ref.equip', 'ref.item', 'ref.skill'].sort(),
    );
  });

  it('relation matches the relation name exactly, without expanding unions', () => {
    expect(matchNames({ pvfVersion: '90US', relation: '装备' })).toEqual(['ref.equip']);
    expect(matchNames({ pvfVersion: '90US', relation: '物品' })).toEqual(['ref.item']);
    expect(matchNames({ pvfVersion: '90US', relation: '装' })).toEqual([]);
    const [item] = search(bundle, { pvfVersion: '90US', relation: '技能' }).items;
    expect(item?.relation).toBe('技能');
    expect(item?.matchReasons).toContain('relation');
  });
});

describe('search: combinations', () => {
  it('combines different filters with AND', () => {
    expect(matchNames({ pvfVersion: '90US', targetKinds: ['token'], annotationTypes: ['reference'], extensions: ['.equ'] })).toEqual(
      ['ref.any', 'ref.equip', 'ref.item', 'ref.skill'],
    );
    expect(matchNames({ pvfVersion: '90US', section: 'price', targetKinds: ['section'] })).toEqual(['section.price']);
    expect(matchNames({ pvfVersion: '90US', section: 'price', filePath: 'stackable/a.stk' })).toEqual(['section.price']);
    expect(matchNames({ pvfVersion: '90US', query: '价格', kinds: ['field'] })).toEqual([]);
  });

  it('lists every filter that applied in matchReasons', () => {
    const [item] = search(bundle, { pvfVersion: '90US', query: '出售', section: 'price', targetKinds: ['token'], kinds: ['rule'], annotationTypes: ['text'], filePath: 'equipment/a.equ' }).items;
    expect(item?.ruleId).toBe('token.price');
    expect(item?.matchReasons).toEqual(expect.arrayContaining(['query', 'section', 'targetKinds', 'kinds', 'annotationTypes', 'filePath']));
  });

  it('returns path, section and token documents when no section is given', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', filePath: 'equipment/a.equ', limit: 100 });
    expect(new Set(out.items.map((i) => i.targetKind))).toEqual(new Set(['path', 'section', 'token']));
  });
});

describe('search: pvfVersion', () => {
  it('returns only effective definitions for an explicit version', () => {
    const us110 = matchNames({ pvfVersion: '110US' });
    expect(us110).toContain('ver.110-only');
    expect(us110).not.toContain('ver.90cn-only');
    const cn90 = matchNames({ pvfVersion: '90CN' });
    expect(cn90).toContain('ver.90cn-only');
    expect(cn90).not.toContain('ver.110-only');
    const us90 = matchNames({ pvfVersion: '90US' });
    expect(us90).not.toContain('ver.110-only');
    expect(us90).not.toContain('ver.90cn-only');
    for (const item of search(bundle, { pvfVersion: '110US', limit: 100 }).items) expect(item.applicability).toBe('matched');
  });

  it('counts as many effective documents per version as the manifest records', () => {
    for (const v of ['90US', '90CN', '110US']) {
      // A shared field and its implicit rule are one hit.
      const effective = bundle.documents.filter((d) => statusIn(d, v).effective);
      expect(effective).toHaveLength(bundle.manifest.counts.effectiveByVersion[v] as number);
      expect(search(bundle, { pvfVersion: v }).totalMatches).toBe(mergeImplicitRules(effective, v).length);
    }
  });

  it('with "all" excludes no version and gives applicability unknown for everything', () => {
    const out = searchAll(bundle, { pvfVersion: 'all', limit: 100 });
    expect(names(out.items)).toEqual(expect.arrayContaining(['ver.110-only', 'ver.90cn-only']));
    expect(out.items.every((i) => i.applicability === 'unknown')).toBe(true);
    expect(itemNamed(out.items, 'ver.110-only').pvfVersions).toEqual(['110US']);
    expect(search(bundle, { pvfVersion: 'all' }).context.pvfVersion).toBe('all');
  });

  it('with "all" still gives unknown when a filePath or extension would match', () => {
    const out = searchAll(bundle, { pvfVersion: 'all', filePath: 'equipment/a.equ', extensions: ['.equ'], limit: 100 });
    expect(out.items.length).toBeGreaterThan(0);
    expect(out.items.every((i) => i.applicability === 'unknown')).toBe(true);
  });

  it('with "all" and status effective filters only overridden and disabled definitions', () => {
    const got = matchNames({ pvfVersion: 'all' });
    expect(got).not.toContain('disabled.me');
    expect(got.filter((n) => n === 'override.me')).toHaveLength(1);
    // An implicit field rule replaced by an explicit rule in every version is not effective either.
    expect(got).not.toContain('field:equ.attack');
    expect(got).toContain('field:equ.rarity');
  });

  it('rejects an unknown explicit version with INVALID_VERSION listing the supported versions', () => {
    const error = errorOf(() => search(bundle, { pvfVersion: '70KR' }));
    expect(error.code).toBe('INVALID_VERSION');
    expect(error.data?.supportedVersions).toEqual(['90US', '90CN', '110US']);
    // Version names are case-sensitive.
    expect(() => search(bundle, { pvfVersion: '110us' })).toThrow(expect.objectContaining({ code: 'INVALID_VERSION' }));
  });

  it('with "current" and no open archive fails with NO_ARCHIVE', () => {
    expect(() => search(bundle, { pvfVersion: 'current', workspaceId: 'w1' })).toThrow(expect.objectContaining({ code: 'NO_ARCHIVE' }));
    expect(() => search(bundle, {})).toThrow(expect.objectContaining({ code: 'NO_ARCHIVE' }));
  });

  it('with "current" uses the workspace version given by the caller', () => {
    const current = search(bundle, { pvfVersion: 'current', workspaceId: 'w1', limit: 100 }, { currentVersion: '110US' });
    const explicit = search(bundle, { pvfVersion: '110US', limit: 100 });
    expect(current.context).toEqual({ workspaceId: 'w1', pvfVersion: '110US', filePath: null });
    expect(current.items.map((i) => i.documentId)).toEqual(explicit.items.map((i) => i.documentId));
    expect(names(current.items)).toContain('ver.110-only');
  });

  it('with "current" on an archive of unknown version returns only unrestricted definitions', () => {
    const out = searchAll(bundle, { pvfVersion: 'current', workspaceId: 'w1', limit: 100 }, { currentVersion: '' });
    expect(names(out.items)).not.toContain('ver.110-only');
    expect(names(out.items)).not.toContain('ver.90cn-only');
    expect(out.items.every((i) => i.pvfVersions.length === 0)).toBe(true);
  });
});

describe('search: status', () => {
  it('effective (the default) returns only effective definitions', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', limit: 100 });
    expect(out.items.every((i) => i.effective && i.state === 'effective' && i.statusReason === null)).toBe(true);
    expect(names(out.items)).not.toContain('disabled.me');
    expect(names(out.items)).not.toContain('field:equ.attack');
  });

  it('all includes overridden, disabled, suppressed and not-applicable definitions with effective false, state and reason', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', status: 'all', limit: 100 });
    const disabled = itemNamed(out.items, 'disabled.me');
    expect(disabled).toMatchObject({ effective: false, state: 'disabled' });
    expect(disabled.statusReason).toMatch(/search-user/);

    const overrides = out.items.filter((i) => i.ruleId === 'override.me');
    expect(overrides).toHaveLength(2);
    const base = overrides.find((i) => i.layer === 'search-base');
    const user = overrides.find((i) => i.layer === 'search-user');
    expect(base).toMatchObject({ effective: false, state: 'overridden', source: 'builtin' });
    expect(base?.statusReason).toMatch(/override\.me/);
    expect(user).toMatchObject({ effective: true, state: 'effective', source: 'user' });
    expect(base?.documentId).not.toBe(user?.documentId);

    const notApplicable = itemNamed(out.items, 'ver.110-only');
    expect(notApplicable).toMatchObject({ effective: false, state: 'notApplicable' });
    expect(notApplicable.statusReason).toMatch(/110US/);

    const suppressed = itemNamed(out.items, 'field:equ.attack');
    expect(suppressed).toMatchObject({ effective: false, state: 'suppressed' });
    expect(suppressed.statusReason).toMatch(/rule\.attack-uses-field/);

    for (const item of out.items) {
      if (!item.effective) expect(item.statusReason).not.toBeNull();
    }
  });

  it('all returns every document of the snapshot for pvfVersion all', () => {
    const out = searchAll(bundle, { pvfVersion: 'all', status: 'all', limit: 100 });
    expect(out.totalMatches).toBe(mergeImplicitRules(bundle.documents, null).length);
    const disabled = itemNamed(out.items, 'disabled.me');
    expect(disabled).toMatchObject({ effective: false, state: 'disabled', applicability: 'unknown' });
    // "all" does not judge versions: a version-restricted definition stays effective.
    expect(itemNamed(out.items, 'ver.90cn-only')).toMatchObject({ effective: true, state: 'effective' });
  });
});

describe('search: filters and words against a plain scan (property)', () => {
  it('finds exactly the documents bench/linear-scan.ts finds, for any mix of filters and words', () => {
    const docs = bundle.documents;
    // Filters mostly taken from one document, so that many mixes find something; some from anywhere.
    const input = fc
      .record({
        at: fc.nat({ max: docs.length - 1 }),
        other: fc.nat({ max: docs.length - 1 }),
        use: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        query: fc.oneof(fc.constantFrom('攻击', '稀有度', 'price', '[name]', '[stack limit]', '。', 'e', '神 史诗', 'zz'), fc.nat({ max: 3 }).map(String)),
        extensions: fc.subarray(['.equ', '.STK', '.skl', '.mob', '.zzz'], { minLength: 1 }),
        pvfVersion: fc.constantFrom('all', '90US', '90CN', '110US'),
        status: fc.constantFrom('effective', 'all') as fc.Arbitrary<'effective' | 'all'>,
      })
      .map(({ at, other, use, query, extensions, pvfVersion, status }) => {
        const doc = docs[at] as BundleDocument;
        const pick = (docs[other] ?? doc) as BundleDocument;
        const input: Parameters<typeof search>[1] = { pvfVersion, status };
        if (use[0]) input.query = /^\d$/u.test(query) ? doc.title.slice(Number(query), Number(query) + 2) || 'x' : query;
        if (use[1]) input.kinds = [doc.kind];
        if (use[2]) input.targetKinds = [doc.targetKind, pick.targetKind];
        if (use[3]) input.annotationTypes = [doc.annotationType];
        if (use[4] && doc.relation !== null) input.relation = doc.relation;
        if (use[5] && doc.section !== null) input.section = use[6] ? `[${doc.section.toUpperCase()}]` : doc.section;
        if (use[7]) input.extensions = use[6] ? [...doc.match.extensions, ...extensions] : extensions;
        return input;
      });
    let nonEmpty = 0;
    fc.assert(
      fc.property(input, (raw) => {
        const found = searchAll(bundle, { ...raw, limit: 100 }).items.map((i) => i.documentId).sort();
        const linear = linearSearch(bundle, { ...raw, limit: 100_000 });
        expect(found).toEqual([...linear.documentIds].sort());
        expect(found).toHaveLength(linear.totalMatches);
        if (found.length > 0) nonEmpty++;
      }),
      { numRuns: 400 },
    );
    // Not vacuous: many of the mixes find something.
    expect(nonEmpty).toBeGreaterThan(40);
  });
});
