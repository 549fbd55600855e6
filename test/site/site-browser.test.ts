/**
 * The reference site built from rules/builtin, in real headless Chromium: the overview, the search
 * (same documents in the same order as the library search the MCP tool runs), a document page with its
 * enum table and layout drawing, deep links, phone width and dark mode, and no console errors.
 * Without Chromium this file fails and says how to install it.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../runtime/bundle/schema.js';
import { searchDocuments } from '../../runtime/search/search-documents.js';
import { SearchInputSchema, type SearchInput } from '../../runtime/search/search-schema.js';
import { builtinSite, launchChromium, PageErrors, requireChromium, searchInPage, serveStatic, siteSearch } from './helpers.js';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { querySelectorAll(selector: string): { length: number }; documentElement: { scrollWidth: number }; body: object };
declare const window: { innerWidth: number };
declare function getComputedStyle(element: object): { backgroundColor: string };

let work: string;
let bundle: Bundle;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let context: BrowserContext;
let page: Page;
const errors = new PageErrors();

beforeAll(async () => {
  requireChromium();
  // The builtin site of this test run, shared with other files (read only).
  const shared = await builtinSite();
  work = shared.site;
  const snapshots = shared.snapshots;
  bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
  server = await serveStatic(work);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = errors.watch(await context.newPage());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The library's answer for a site search: the tool input written out by hand, page size 50. */
function library(input: SearchInput) {
  return searchDocuments(bundle, SearchInputSchema.parse({ pvfVersion: 'all', limit: 50, ...input }));
}

function docWhere(predicate: (doc: BundleDocument) => boolean, what: string): BundleDocument {
  const doc = bundle.documents.find(predicate);
  if (!doc) throw new Error(`rules/builtin has no ${what}`);
  return doc;
}

describe('overview', () => {
  it('shows the revision, the layers, the versions and the version × file-type matrix', async () => {
    await page.goto(server.url);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('[data-testid="revision"]')).toBe(bundle.rulesRevision);
    expect(await page.textContent('[data-testid="layers"]')).toContain('builtin');
    for (const v of bundle.manifest.pvfVersions) expect(await page.textContent('[data-testid="matrix"] thead')).toContain(v);
    // A matrix cell counts what a search with that extension and version finds.
    const row = page.locator('[data-testid="matrix"] tbody tr', { has: page.locator('th a', { hasText: /^\.equ$/ }) });
    const column = bundle.manifest.pvfVersions.indexOf('110US');
    const cell = await row.locator('td').nth(column + 1).textContent();
    expect(Number(cell)).toBe(library({ extensions: ['.equ'], pvfVersion: '110US', limit: 1 }).totalMatches);
  });

  it('links to stable pages per file type, section and document', async () => {
    const doc = docWhere((d) => d.id === 'builtin.equ.rarity' && d.kind === 'field', 'field builtin.equ.rarity');
    for (const [url, text] of [
      ['type/equ/', '.equ'],
      ['section/rarity/', '[rarity]'],
      [`doc/${doc.documentId}/`, doc.title],
      ['relations/', '关联'],
      ['fields/', 'equ.rarity'],
      ['sections/', '[rarity]'],
      ['changes/', '上一个快照'],
    ] as const) {
      const response = await page.goto(`${server.url}${url}`);
      expect(response?.status(), url).toBe(200);
      expect(await page.textContent('main'), url).toContain(text);
    }
    await page.goto(`${server.url}type/equ/`);
    expect(await page.locator('main a[href="/section/rarity/"]').count()).toBeGreaterThan(0);
  });
});

describe('search', () => {
  it('finds 稀有度 with the same documents in the same order as the library', async () => {
    const expected = library({ query: '稀有度' });
    expect(expected.items.length).toBeGreaterThan(0);
    const got = await siteSearch(page, server.url, { q: '稀有度' });
    expect(got.ids).toEqual(expected.items.map((i) => i.documentId));
    expect(got.total).toBe(expected.totalMatches);
  });

  it('finds a section name, bracketed or as a filter, like the library', async () => {
    for (const [params, input] of [
      [{ q: '[usable job]' }, { query: '[usable job]' }],
      [{ q: 'rarity' }, { query: 'rarity' }],
      [{ section: 'rarity' }, { section: 'rarity' }],
    ] as const) {
      const expected = library(input);
      expect(expected.items.length, JSON.stringify(input)).toBeGreaterThan(0);
      // Each through the URL, as a link to a search would open it.
      const got = await siteSearch(page, server.url, params);
      expect(got.ids, JSON.stringify(params)).toEqual(expected.items.map((i) => i.documentId));
    }
  });

  it('ranks the same ids as the library for a fixed list of queries and filters (typed into the form)', async () => {
    const cases: [Record<string, string>, SearchInput][] = [
      [{ q: '攻击' }, { query: '攻击' }],
      [{ q: '史诗' }, { query: '史诗' }],
      [{ q: 'equ.rarity' }, { query: 'equ.rarity' }],
      [{ q: 'skill levelup' }, { query: 'skill levelup' }],
      [{ q: '名称', kind: 'field' }, { query: '名称', kinds: ['field'] }],
      [{ q: '图', ext: '.equ' }, { query: '图', extensions: ['.equ'] }],
      [{ q: '等级', v: '110US' }, { query: '等级', pvfVersion: '110US' }],
      [{ q: 'id', type: 'reference' }, { query: 'id', annotationTypes: ['reference'] }],
      [{ path: 'equipment/character/swordman/weapon/a.equ' }, { filePath: 'equipment/character/swordman/weapon/a.equ' }],
      [{ q: 'name', status: 'all' }, { query: 'name', status: 'all' }],
      [{ q: '没有这个词的规则' }, { query: '没有这个词的规则' }],
    ];
    await siteSearch(page, server.url, { q: '稀有度' });
    for (const [params, input] of cases) {
      const expected = library(input);
      const got = await searchInPage(page, params);
      expect(got.ids, JSON.stringify(params)).toEqual(expected.items.map((i) => i.documentId));
      expect(got.total, JSON.stringify(params)).toBe(expected.totalMatches);
    }
  });

  it('continues with the next page like the library cursor', async () => {
    const first = library({ query: '的' });
    expect(first.nextCursor).not.toBeNull();
    const second = library({ query: '的', cursor: first.nextCursor as string });
    await siteSearch(page, server.url, { q: '的' });
    await page.click('#search-more');
    await page.waitForFunction((n) => document.querySelectorAll('#search-results > li').length === n, first.items.length + second.items.length);
    const ids = await page.$$eval('#search-results > li', (items) => items.map((li) => li.getAttribute('data-document-id')));
    expect(ids).toEqual([...first.items, ...second.items].map((i) => i.documentId));
  });

  it('searches from the box in the header of every page', async () => {
    await page.goto(`${server.url}type/equ/`);
    await page.fill('header input[name="q"]', '稀有度');
    await page.press('header input[name="q"]', 'Enter');
    await page.waitForSelector('#search-status[data-state="done"]');
    expect(page.url()).toContain('/search/?q=');
    const ids = await page.$$eval('#search-results > li', (items) => items.map((li) => li.getAttribute('data-document-id')));
    expect(ids).toEqual(library({ query: '稀有度' }).items.map((i) => i.documentId));
  });

  it('reports a bad filter instead of failing', async () => {
    await page.goto(`${server.url}search/?pathKind=directory&q=x`);
    await page.waitForSelector('#search-status[data-state="error"]');
    expect(await page.textContent('#search-status')).toContain('pathKind');
  });
});

describe('document page', () => {
  it('shows the enum table with every value and the layout drawing', async () => {
    const doc = docWhere((d) => d.annotationType === 'enum' && d.targetKind === 'token' && d.valueCount > 3, 'enum token rule');
    await page.goto(`${server.url}doc/${doc.documentId}/`);
    expect(await page.textContent('[data-testid="doc-title"]')).toBe(doc.title || doc.id);
    const rows = await page.$$eval('[data-testid="enum-table"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent ?? '')));
    expect(rows).toEqual(bundle.valuesOf(doc.documentId).map(([k, v]) => [k, v]));
    expect(await page.isVisible('[data-testid="layout-drawing"]')).toBe(true);
    expect(await page.locator('[data-testid="layout-drawing"] [data-role="target"]').count()).toBeGreaterThan(0);
    expect(await page.textContent('[data-testid="resolved"]')).toContain('"kind": "token"');
    expect(await page.textContent('[data-testid="raw"]')).toContain(doc.id);
  });

  it('draws records, sentinels, skipped tokens and the context token', async () => {
    const grouped = docWhere((d) => (d.resolved.target.standaloneValues?.length ?? 0) > 0 && (d.resolved.target.recordTokens ?? 0) > 0, 'rule with sentinels');
    await page.goto(`${server.url}doc/${grouped.documentId}/`);
    const drawing = page.locator('[data-testid="layout-drawing"]');
    expect(await drawing.getAttribute('data-mode')).toBe('records');
    expect(await drawing.locator('[data-role="sentinel"]').count()).toBeGreaterThan(0);
    expect(await drawing.locator('.seg-record').count()).toBeGreaterThan(1);
    expect(await drawing.textContent()).toContain(`${grouped.resolved.target.recordTokens} 个标记值`);

    const withContext = docWhere((d) => d.resolved.target.contextIndex !== null, 'rule with a context index');
    await page.goto(`${server.url}doc/${withContext.documentId}/`);
    expect(await page.locator('[data-testid="layout-drawing"] [data-marks~="context"]').count()).toBeGreaterThan(0);
  });

  it('lists the .lst paths of the relation a reference uses', async () => {
    const doc = docWhere((d) => d.annotationType === 'reference' && d.relation !== null && (bundle.relationsByName.get(d.relation)?.listPaths.length ?? 0) > 0, 'reference rule');
    await page.goto(`${server.url}doc/${doc.documentId}/`);
    const text = await page.textContent('[data-testid="relation"]');
    for (const p of bundle.relationsByName.get(doc.relation as string)?.listPaths ?? []) expect(text).toContain(p);
  });
});

describe('layout', () => {
  it('fits a phone screen and follows the dark colour scheme', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const small = errors.watch(await phone.newPage());
    const doc = docWhere((d) => d.annotationType === 'enum' && d.targetKind === 'token', 'enum rule');
    for (const url of ['', `doc/${doc.documentId}/`, 'search/?q=稀有度']) {
      await small.goto(`${server.url}${url}`);
      const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, url).toBeLessThanOrEqual(0);
    }
    const background = await small.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(150);
    await phone.close();
  });
});

describe('console', () => {
  it('logged no errors on any page', () => {
    expect(errors.errors).toEqual([]);
  });
});
