/**
 * The site with pvfdoc's format extensions (layer test/fixtures/layers/format-extensions plus one rule
 * whose labels are markup): the trust badge and sources on document pages, and the layout drawing of
 * parent/notInside scope, sentinel values and column titles, all as text. The layout data is checked
 * directly; the pages in real headless Chromium.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { layoutOf } from '../../site/src/lib/layout.js';
import { searchDocuments } from '../../runtime/search/search-documents.js';
import { launchChromium, PageErrors, pvfdocOk, requireChromium, ROOT, serveStatic, siteSearch } from './helpers.js';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { querySelectorAll(selector: string): { length: number } };

const LAYER = path.join(ROOT, 'test/fixtures/layers/format-extensions');
const MARKUP = '<img src=x onerror="window.__pwned=1"><b>粗</b>';

let work: string;
let bundle: Bundle;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let page: Page;
const errors = new PageErrors();

beforeAll(async () => {
  requireChromium();
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-site-extensions-'));
  const layer = path.join(work, 'layer');
  await cp(LAYER, layer, { recursive: true });
  // The markup rules go into a part file: rewriting annotations.json through JSON.parse would reorder
  // its integer-like sentinel keys.
  const rules: unknown[] = [];
  rules.push({
    id: 'xss.columns',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'markup', recordTokens: 2, parent: MARKUP, notInside: [MARKUP] },
    annotation: { title: MARKUP, type: 'text', columns: [MARKUP, ''] },
    trust: 'likely',
    sources: [MARKUP],
  });
  rules.push({
    id: 'xss.sentinel',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'markup ref', index: 0 },
    annotation: { title: 'x', type: 'reference', relation: 'npc', sentinels: { [MARKUP]: MARKUP } },
  });
  await mkdir(path.join(layer, 'annotations'));
  await writeFile(path.join(layer, 'annotations/xss.json'), JSON.stringify({ version: 1, rules }));
  const snapshots = path.join(work, 'snapshots');
  await pvfdocOk(['build', '--no-builtin', '--layer', layer, '--out', snapshots]);
  await pvfdocOk(['site', '--snapshot', snapshots, '--out', path.join(work, 'site'), '--quiet']);
  bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
  server = await serveStatic(path.join(work, 'site'));
  browser = await launchChromium();
  page = errors.watch(await (await browser.newContext()).newPage());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const scopeOnPage = () => page.$$eval('[data-testid="layout-scope"] span', (spans) => spans.map((s) => s.textContent));

const docOf = (id: string) => {
  const doc = bundle.documents.find((d) => d.kind === 'rule' && d.id === id);
  if (!doc) throw new Error(`no rule ${id}`);
  return doc;
};

async function open(id: string): Promise<void> {
  await page.goto(`${server.url}doc/${docOf(id).documentId}/`);
}

describe('layout drawing data', () => {
  it('states parent and notInside scope', () => {
    expect(layoutOf(docOf('skl.condition value')).scope).toEqual(['仅在 [skill apply condition] 内']);
    expect(layoutOf(docOf('skl.plain value')).scope).toEqual(['不在 [skill apply condition] 内']);
    expect(layoutOf(docOf('skl.condition tag')).scope).toEqual(['仅在 [Skill Apply Condition] 内']);
    expect(layoutOf(docOf('qst.kind')).scope).toEqual([]);
  });

  it('lists sentinel values with their labels in source order', () => {
    expect(layoutOf(docOf('qst.npc')).sentinels).toEqual([
      { value: '-1', label: '无 NPC' },
      { value: '0', label: '任意 NPC' },
    ]);
  });

  it('draws a columns rule as records whose every token is a target captioned with its column title', () => {
    const drawing = layoutOf(docOf('qst.list'));
    expect(drawing.mode).toBe('columns');
    const records = drawing.segments.flatMap((s) => s.children ?? []).filter((c) => c.kind === 'record');
    expect(records.map((r) => r.boxes.map((b) => [b.role, b.caption]))).toEqual([
      [['target', '任务 1 编号'], ['target', '发布任务的 NPC'], ['target', '第3列']],
      [['target', '任务 2 编号'], ['target', '发布任务的 NPC'], ['target', '第3列']],
    ]);
    expect(drawing.facts.map((f) => f.label)).toContain('列标题');
  });
});

describe('document pages', () => {
  it('show a trust badge and the sources', async () => {
    const cases: [string, string | null][] = [
      ['skl.condition value', '已确认'],
      ['qst.list', '较可信'],
      ['qst.npc', '未验证'],
      ['qst.kind', null],
    ];
    for (const [id, badge] of cases) {
      await open(id);
      const found = await page.locator('[data-testid="trust-badge"]').count();
      if (badge === null) expect(found, id).toBe(0);
      else {
        expect(await page.textContent('[data-testid="trust-badge"]'), id).toBe(badge);
        expect(await page.locator('[data-testid="trust-badge"]').isVisible(), id).toBe(true);
      }
    }
    await open('field:skl.level');
    expect(await page.$$eval('[data-testid="doc-sources"] li', (lis) => lis.map((li) => li.textContent))).toEqual(['OFF/skill.skl', 'KR/skill.skl']);
  });

  it('draw the scope, the sentinel values and the column titles', async () => {
    await open('skl.condition value');
    expect(await scopeOnPage()).toEqual(['仅在 [skill apply condition] 内']);
    await open('skl.plain value');
    expect(await scopeOnPage()).toEqual(['不在 [skill apply condition] 内']);
    await open('qst.npc');
    expect(await page.$$eval('[data-testid="layout-sentinels"] tbody tr', (trs) => trs.map((tr) => tr.textContent))).toEqual(['-1无 NPC', '0任意 NPC']);
    await open('qst.list');
    expect(await page.getAttribute('[data-testid="layout-drawing"]', 'data-mode')).toBe('columns');
    const drawing = await page.textContent('[data-testid="layout-drawing"]');
    expect(drawing).toContain('任务 1 编号');
    expect(drawing).toContain('发布任务的 NPC');
  });

  it('search filters by trust, as the library does, and shows each hit’s trust', async () => {
    for (const trust of ['confirmed', 'likely', 'unverified'] as const) {
      const expected = searchDocuments(bundle, { pvfVersion: 'all', limit: 50, trust: [trust] }).items.map((i) => i.documentId);
      expect(expected.length, trust).toBeGreaterThan(0);
      expect((await siteSearch(page, server.url, { trust })).ids, trust).toEqual(expected);
    }
    await siteSearch(page, server.url, { q: '发布任务的 NPC' });
    expect(await page.$$eval('#search-results .badge-trust', (els) => els.map((e) => e.textContent))).toEqual(['较可信']);
  });

  it('render rule text of the new keys as text, never as markup', async () => {
    for (const id of ['xss.columns', 'xss.sentinel']) {
      await open(id);
      expect(await page.evaluate(() => document.querySelectorAll('main img, main b').length), id).toBe(0);
      expect(await page.textContent('[data-testid="layout-drawing"]'), id).toContain(MARKUP);
    }
    await open('xss.columns');
    expect(await scopeOnPage()).toEqual([`仅在 [${MARKUP}] 内`, `不在 [${MARKUP}] 内`]);
    expect(await page.textContent('[data-testid="doc-sources"]')).toBe(MARKUP);
    expect(errors.errors).toEqual([]);
  });
});
