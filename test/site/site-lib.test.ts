/**
 * The site's pure parts, without a browser: URL slugs, the layout drawing, the one-pass model (its
 * counts agree with the library search), the browser stand-ins for node:crypto and Buffer, and the
 * browser search bundle (no Node-only module left in it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ESLint } from 'eslint';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument, TargetSpec } from '../../runtime/bundle/schema.js';
import { searchDocuments } from '../../runtime/search/search-documents.js';
import { buildSearchScript, findSiteRoot } from '../../site/build-site.js';
import { Buffer as BrowserBuffer } from '../../site/src/browser/shims/node-buffer.js';
import { createHash as browserCreateHash, rememberDigest } from '../../site/src/browser/shims/node-crypto.js';
import { sha256HexOfBytes } from '../../site/src/browser/shims/sha256.js';
import { docPageData, VALUES_PAGE_SIZE } from '../../site/src/lib/doc-page.js';
import { layoutOf, type LayoutBox } from '../../site/src/lib/layout.js';
import { buildSiteModel, groupBySection } from '../../site/src/lib/model.js';
import { paths, slugOf } from '../../site/src/lib/slug.js';
import { ROOT } from './helpers.js';

let bundle: Bundle;

beforeAll(async () => {
  const result = await compileLayers([path.join(ROOT, 'rules/builtin')]);
  if (!result.ok) throw new Error(`rules/builtin does not compile: ${JSON.stringify(result.problems.slice(0, 3))}`);
  bundle = openBuiltBundle(result.bundle.files);
});

describe('slugs', () => {
  it('are ASCII, stable and never shared by two names', () => {
    const names = ['rarity', 'Rarity', 'skill levelup', 'skill-levelup', 'skill_levelup', '쿨타입 그룹', '物品', 'a/b', 'a?b#c', '_any', '', ' ', '..', '_2d_'];
    const slugs = names.map(slugOf);
    expect(new Set(slugs).size).toBe(names.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9_-]+$/);
    expect(slugOf('skill levelup')).toBe('skill-levelup');
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => a === b || slugOf(a) !== slugOf(b)),
      { numRuns: 2000 },
    );
  });

  it('give sections and extensions case-insensitive pages', () => {
    expect(paths.section(' [Rarity] '.slice(2, -2))).toBe(paths.section('rarity'));
    expect(paths.type('.EQU')).toBe('type/equ/');
    expect(paths.type('.equ')).not.toBe(paths.anyType());
  });
});

function target(partial: Partial<TargetSpec>): Pick<BundleDocument, 'resolved' | 'annotationType'> {
  const full: TargetSpec = {
    kind: 'token',
    section: 's',
    index: null,
    range: null,
    offset: null,
    groupOffset: null,
    standaloneValues: null,
    recordTokens: null,
    tokensPerLineIndex: null,
    contextIndex: null,
    imagePathToken: null,
    parent: null,
    notInside: null,
    topLevel: false,
    sectionPattern: null,
    when: null,
    countedGroups: null,
    variableRecords: null,
    after: null,
    ...partial,
  };
  return {
    annotationType: 'text',
    resolved: {
      match: { extensions: ['.equ'], glob: '' },
      target: full,
      annotation: { title: '', content: '', type: 'text', relation: null, pathRoot: null, inlineImage: null, hasValues: false, sentinels: null, columns: null },
      preview: null,
    },
  };
}

const boxes = (segments: ReturnType<typeof layoutOf>['segments']): LayoutBox[] => segments.flatMap((s) => [...s.boxes, ...(s.children ?? []).flatMap((c) => c.boxes)]);

describe('layout drawing', () => {
  it('draws the worked example of rule-format §2.3 (offset 1, groupOffset 1, width 2, index 0, sentinel −1)', () => {
    const drawing = layoutOf(target({ offset: 1, groupOffset: 1, recordTokens: 2, index: 0, standaloneValues: [-1] }));
    expect(drawing.mode).toBe('records');
    const [, offset, group1, sentinel] = drawing.segments;
    expect(offset?.boxes.map((b) => [b.role, b.position])).toEqual([['skip', '#0']]);
    expect(group1?.boxes.map((b) => [b.role, b.position])).toEqual([['group-skip', '#1']]);
    // Records of the first group: tokens 2–3 and 4–5 of the example (`100 200`, `300 -1` cut by the sentinel in real data).
    expect(group1?.children?.slice(0, 2).map((r) => r.boxes.map((b) => [b.role, b.position]))).toEqual([
      [['target', '#2 [0]'], ['token', '#3 [1]']],
      [['target', '#4 [0]'], ['token', '#5 [1]']],
    ]);
    expect(sentinel?.boxes[0]).toMatchObject({ role: 'sentinel', position: '-1' });
    expect(boxes(drawing.segments).filter((b) => b.role === 'sentinel')).toHaveLength(2);
  });

  it('marks the context, image path and width tokens, and cuts long runs', () => {
    const drawing = layoutOf({ ...target({ recordTokens: 40, index: 20, contextIndex: 3, imagePathToken: 39, offset: 12, tokensPerLineIndex: 5 }), annotationType: 'image' });
    const all = boxes(drawing.segments);
    expect(all.filter((b) => b.marks.includes('context')).length).toBeGreaterThan(0);
    expect(all.filter((b) => b.marks.includes('image-path')).length).toBeGreaterThan(0);
    expect(all.filter((b) => b.marks.includes('width')).map((b) => b.position)).toEqual(['#5']);
    expect(all.filter((b) => b.role === 'target').map((b) => b.position)).toEqual(['#32 [20]', '#72 [20]']);
    expect(all.length).toBeLessThan(40);
  });

  it('takes the context index from a contextual relation when the target has none', () => {
    const doc = { ...target({ recordTokens: 3, index: 1 }), annotationType: 'reference' as const };
    const relation = bundle.relations.find((r) => r.kind === 'contextual');
    if (!relation) return;
    const drawing = layoutOf(doc, relation);
    expect(drawing.facts.map((f) => f.value).join()).toContain(relation.name);
  });

  it('draws index, range, section and path targets, and says what is ignored', () => {
    expect(layoutOf(target({ index: 3 })).segments[1]?.boxes.map((b) => b.role)).toEqual(['token', 'token', 'token', 'target', 'token', 'gap']);
    expect(layoutOf(target({ range: { start: 1, endExclusive: 3 } })).segments[1]?.boxes.filter((b) => b.role === 'target').map((b) => b.position)).toEqual(['#1', '#2']);
    expect(layoutOf(target({ kind: 'section' })).segments[0]?.boxes[0]?.role).toBe('target');
    expect(layoutOf(target({ kind: 'path', section: null })).mode).toBe('path');
    expect(layoutOf(target({ index: 0, offset: 2 })).notes.join()).toContain('offset');
  });

  it('draws every builtin document', () => {
    for (const doc of bundle.documents) {
      const drawing = layoutOf(doc, doc.relation ? (bundle.relationsByName.get(doc.relation) ?? null) : null);
      if (doc.targetKind === 'token' && (doc.resolved.target.index !== null || doc.resolved.target.range !== null)) {
        expect(boxes(drawing.segments).some((b) => b.role === 'target'), doc.id).toBe(true);
      }
    }
  });
});

describe('site model', () => {
  it('counts, per version and file type, what a search with that extension finds', () => {
    const model = buildSiteModel(bundle);
    for (const row of model.matrix) {
      if (row.extension === null) continue;
      bundle.manifest.pvfVersions.forEach((version) => {
        const column = model.versionColumns.indexOf(version);
        const expected = searchDocuments(bundle, { extensions: [row.extension as string], pvfVersion: version, limit: 1 }).totalMatches;
        expect(row.counts[column], `${row.extension} ${version}`).toBe(expected);
      });
    }
  });

  it('puts every document in exactly the groups it belongs to', () => {
    const model = buildSiteModel(bundle);
    const byType = model.anyTypeDocs.length + [...model.docsByExtension.values()].reduce((n, l) => n + l.length, 0);
    expect(byType).toBe(bundle.documents.reduce((n, d) => n + Math.max(1, new Set(d.match.extensions.map((e) => e.toLowerCase())).size), 0));
    expect(model.sections.reduce((n, s) => n + s.docs.length, 0)).toBe(bundle.documents.filter((d) => d.section !== null && d.section.trim() !== '').length);
    expect(new Set(model.sections.map((s) => s.slug)).size).toBe(model.sections.length);
    const groups = groupBySection(bundle.documents);
    expect(groups.reduce((n, g) => n + g.docs.length, 0)).toBe(bundle.documents.length);
    expect(model.fields.every((f) => model.fieldDocByFieldId.get(f.id) !== undefined)).toBe(true);
  });
});

describe('document pages', () => {
  it('find the relation, field, overrider and users of every builtin document', () => {
    const model = buildSiteModel(bundle);
    for (const doc of bundle.documents) {
      const data = docPageData(model, doc);
      expect(data.relation?.relation.name ?? null, doc.id).toBe(doc.relation !== null && model.relationsByName.get(doc.relation)?.definitions.length ? doc.relation : null);
      if (doc.kind === 'rule' && doc.fieldId !== null) expect(data.field?.id, doc.id).toBe(doc.fieldId);
      if (doc.kind === 'field') expect(data.usedBy.every((r) => r.fieldId === doc.id)).toBe(true);
      expect(data.valuePages).toBe(Math.max(1, Math.ceil(doc.valueCount / VALUES_PAGE_SIZE)));
    }
  });
});

describe('browser stand-ins', () => {
  it('hash like node:crypto', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const bytes = randomBytes(length);
      expect(sha256HexOfBytes(new Uint8Array(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    for (const text of ['', 'abc', '稀有度 ✓ 😀', 'x'.repeat(70)]) {
      expect(browserCreateHash('sha256').update(text).digest('hex')).toBe(createHash('sha256').update(text).digest('hex'));
    }
    rememberDigest('remembered text', 'f'.repeat(64));
    expect(browserCreateHash('sha256').update('remembered text').digest('hex')).toBe('f'.repeat(64));
  });

  it('convert like Buffer', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const node = Buffer.from(text, 'utf8').toString('base64url');
        expect(BrowserBuffer.from(text, 'utf8').toString('base64url')).toBe(node);
        expect(BrowserBuffer.from(node, 'base64url').toString('utf8')).toBe(text);
        expect(BrowserBuffer.byteLength(text)).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('browser search bundle', () => {
  it('holds the runtime search code and no Node-only module', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-search-js-'));
    try {
      const file = path.join(dir, 'search.js');
      await buildSearchScript(esbuild, findSiteRoot(path.join(ROOT, 'site')), file);
      const code = await readFile(file, 'utf8');
      expect(code).not.toMatch(/["']node:[a-z/]+["']/);
      expect(code).not.toMatch(/\brequire\(/);
      expect(code).toContain('pvf_annotation_search');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('module boundary', () => {
  it('lets site/ import only runtime/bundle and runtime/search', async () => {
    const dir = path.join(ROOT, 'site/__boundary_probe__');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'probe.ts');
    try {
      await writeFile(
        file,
        [
          "import { loadBundle } from '../../runtime/bundle/load-bundle.js';",
          "import { searchDocuments } from '../../runtime/search/search-documents.js';",
          "import { PvfdocError } from '../../runtime/errors.js';",
          "import { explainFile } from '../../runtime/explain/explain-file.js';",
          "import { compileLayers } from '../../build/compile-layers.js';",
          "import { run } from '../../cli/commands/site.js';",
          'export const probe = [loadBundle, searchDocuments, PvfdocError, explainFile, compileLayers, run];',
          '',
        ].join('\n'),
      );
      const [result] = await new ESLint({ cwd: ROOT }).lintFiles([file]);
      const refused = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
      expect(refused).toEqual([3, 4, 5, 6]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
