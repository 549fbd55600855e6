/**
 * The site's light search (site/src/browser/search-files.ts, fetch-bundle.ts) on the builtin site: the
 * first result of 稀有 after fetching at most 35 % of the bundle's bytes, the same answers as the MCP
 * tool pvf_annotation_search (in headless Chromium, and through the page's loader in Node for a fixed
 * list and random queries), every search file checked against a hash that starts in the page (a changed
 * shard, head or search.json is refused with a visible error), llms.txt and its links, and the folded
 * filters on a 360 px screen. Without Chromium this file fails and says how to install it.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../runtime/bundle/constants.js';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../runtime/bundle/rules-holder.js';
import { BUNDLE_FILES } from '../../runtime/bundle/schema.js';
import { createServer } from '../../runtime/mcp/create-server.js';
import { searchDocuments } from '../../runtime/search/search-documents.js';
import { SearchInputSchema, type SearchInput, type SearchOutput } from '../../runtime/search/search-schema.js';
import { openLightSearch, type LightSearch } from '../../site/src/browser/fetch-bundle.js';
import { MAX_SHARDS, parseSearchManifest, searchDirName, SEARCH_MANIFEST_NAME, type SearchManifest } from '../../site/src/browser/search-files.js';
import { builtinSite, launchChromium, PageErrors, requireChromium, searchInPage, serveStatic } from './helpers.js';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { getElementById(id: string): { open?: boolean } | null };

let siteDir: string;
let bundle: Bundle;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
const errors = new PageErrors();
/** Where the search page says the search files are, and search.json's hash it carries. */
let searchFolder: string;
let searchSha256: string;
let manifest: SearchManifest;
/** The six bundle files and manifest.json of the site's bundle copy: what the search page fetched before. */
let bundleBytes: number;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  requireChromium();
  // The builtin site of this test run, shared with other files (read only: tampering goes through page.route).
  const shared = await builtinSite();
  const snapshots = shared.snapshots;
  siteDir = shared.site;
  bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
  const html = await readFile(path.join(siteDir, 'search/index.html'), 'utf8');
  searchFolder = /data-search="([^"]+)"/.exec(html)?.[1] ?? '';
  searchSha256 = /data-search-sha256="([0-9a-f]{64})"/.exec(html)?.[1] ?? '';
  manifest = parseSearchManifest(await readFile(path.join(siteDir, searchFolder, SEARCH_MANIFEST_NAME), 'utf8'));
  const bundleDir = path.join(siteDir, `_pvfdoc/bundle-${bundle.rulesRevision}`);
  bundleBytes = 0;
  for (const name of [MANIFEST_FILE, ...BUNDLE_FILES]) bundleBytes += (await stat(path.join(bundleDir, name))).size;
  server = await serveStatic(siteDir);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** pvf_annotation_search itself, through an MCP client on the same bundle. */
async function toolSearch(args: Record<string, unknown>): Promise<SearchOutput> {
  const created = createServer({ rules: createRulesHolder(bundle), workspaces: new Map(), log: () => undefined });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'site-search-light-test', version: '1.0.0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const answer = await client.callTool({ name: 'pvf_annotation_search', arguments: args });
    if (answer.isError) throw new Error(`pvf_annotation_search failed: ${JSON.stringify(answer.content)}`);
    return answer.structuredContent as SearchOutput;
  } finally {
    await client.close();
    await created.close();
  }
}

function library(input: SearchInput): SearchOutput {
  return searchDocuments(bundle, SearchInputSchema.parse({ pvfVersion: 'all', limit: 50, ...input }));
}

/** Shard of search.json holding a document. */
function shardOf(documentId: string) {
  const position = bundle.positionById.get(documentId) ?? -1;
  const shard = manifest.shards.find((s) => position >= s.first && position < s.first + s.count);
  if (!shard) throw new Error(`no shard holds ${documentId}`);
  return shard;
}

/** Opens the search page for `q` and records every response (body sizes read on demand). */
async function openSearch(page: Page, q: string): Promise<Response[]> {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  await page.goto(`${server.url}search/?q=${encodeURIComponent(q)}`);
  return responses;
}

async function resultIds(page: Page): Promise<string[]> {
  return page.$$eval('#search-results > li', (items) => items.map((li) => li.getAttribute('data-document-id') ?? ''));
}

describe('search files', () => {
  it('are checked from the hash the page carries: search.json, then the head, every shard and the bundle manifest', async () => {
    expect(searchSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(searchFolder).toBe(`/_pvfdoc/bundle-${bundle.rulesRevision}/${searchDirName(searchSha256)}/`);
    const folder = path.join(siteDir, searchFolder);
    expect(sha256(await readFile(path.join(folder, SEARCH_MANIFEST_NAME)))).toBe(searchSha256);
    expect(manifest.rulesRevision).toBe(bundle.rulesRevision);
    expect(manifest.documents).toBe(bundle.documents.length);
    expect(manifest.bundleManifestSha256).toBe(sha256(await readFile(path.join(siteDir, `_pvfdoc/bundle-${bundle.rulesRevision}`, MANIFEST_FILE))));
    for (const file of [manifest.head, ...manifest.shards]) {
      const bytes = await readFile(path.join(folder, file.name));
      expect(sha256(bytes), file.name).toBe(file.sha256);
      expect(bytes.length, file.name).toBe(file.bytes);
    }
    // Nothing in the folder that search.json does not name.
    expect((await readdir(folder)).sort()).toEqual([SEARCH_MANIFEST_NAME, manifest.head.name, ...manifest.shards.map((s) => s.name)].sort());
    expect(manifest.shards.length).toBeGreaterThan(10);
    expect(manifest.shards.length).toBeLessThanOrEqual(MAX_SHARDS);
  });

  describe('through the page loader in Node', () => {
    let light: LightSearch;
    beforeAll(async () => {
      light = await openLightSearch({ bundleUrl: `${server.url}_pvfdoc/bundle-${bundle.rulesRevision}/`, searchUrl: `${server.url}${searchFolder.slice(1)}`, manifestSha256: searchSha256 });
    });
    const lightSearch = (input: SearchInput) => light.run(() => searchDocuments(light.bundle, SearchInputSchema.parse({ pvfVersion: 'all', limit: 50, ...input })));

    it('opens without any content shard, then fetches only the shards a search reads', async () => {
      expect(light.fetched().shards).toBe(0);
      const answer = await lightSearch({ query: '稀有度' });
      expect(answer).toEqual(library({ query: '稀有度' }));
      const { shards, of } = light.fetched();
      expect(shards).toBeGreaterThan(0);
      expect(shards).toBeLessThan(of / 4);
    });

    it('answers exactly like the library for a fixed list of queries, filters and pages', async () => {
      const cases: SearchInput[] = [
        { query: '稀有' },
        { query: '攻击' },
        { query: '攻击 速度', pvfVersion: '110US' },
        { query: '[usable job]' },
        { query: 'equ.rarity' },
        { query: 'skill levelup' },
        { query: '名称', kinds: ['field'] },
        { query: '图', extensions: ['.equ'] },
        { query: 'id', annotationTypes: ['reference'] },
        { query: 'name', status: 'all' },
        { query: '没有这个词的规则' },
        { section: 'rarity' },
        { filePath: 'equipment/character/swordman/weapon/a.equ' },
        { trust: ['likely'] },
      ];
      for (const input of cases) expect(await lightSearch(input), JSON.stringify(input)).toEqual(library(input));
      const first = library({ query: '的' });
      const cursor = first.nextCursor as string;
      expect(await lightSearch({ query: '的' })).toEqual(first);
      expect(await lightSearch({ query: '的', cursor })).toEqual(library({ query: '的', cursor }));
    });

    it('answers exactly like the library for random words from the documents', async () => {
      const docs = bundle.documents;
      const word = fc
        .tuple(fc.nat({ max: docs.length - 1 }), fc.constantFrom('title', 'content', 'description', 'id'), fc.nat(), fc.integer({ min: 1, max: 4 }))
        .map(([i, field, start, length]) => {
          const text = [...((docs[i] as unknown as Record<string, string>)[field] ?? '')];
          const from = text.length === 0 ? 0 : start % text.length;
          return text.slice(from, from + length).join('').trim();
        })
        .filter((w) => w !== '' && !/\s/.test(w));
      await fc.assert(
        fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 2 }), fc.constantFrom('all', '90US', '110US'), async (words, pvfVersion) => {
          const input = { query: words.join(' '), pvfVersion };
          expect(await lightSearch(input)).toEqual(library(input));
        }),
        { numRuns: 60 },
      );
    });
  });
});

describe('search page', () => {
  it('shows the first result of 稀有 after fetching at most 35 % of the bundle, the same list as pvf_annotation_search', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = errors.watch(await context.newPage());
    try {
      const responses = await openSearch(page, '稀有');
      await page.waitForSelector('#search-results > li');
      const before = [...responses];
      let fetched = 0;
      for (const response of before) fetched += (await response.body()).length;
      const share = fetched / bundleBytes;
      console.log(`light search 稀有: ${fetched} bytes fetched before the first result (${before.length} responses), ${(100 * share).toFixed(1)} % of the bundle's ${bundleBytes} bytes`);
      expect(share).toBeLessThanOrEqual(0.35);
      // Never the heavy files.
      expect(before.map((r) => r.url()).filter((u) => /documents\.json|rendering\.json/.test(u))).toEqual([]);
      expect(before.some((r) => /content-\d+\.json$/.test(r.url()))).toBe(true);

      await page.waitForSelector('#search-status[data-state="done"]');
      const tool = await toolSearch({ query: '稀有', pvfVersion: 'all', limit: 50 });
      expect(tool.items.length).toBeGreaterThan(0);
      expect(await resultIds(page)).toEqual(tool.items.map((i) => i.documentId));
      expect(Number(await page.getAttribute('#search-app', 'data-total'))).toBe(tool.totalMatches);
      // The summaries shown are the documents' own.
      const summaries = await page.$$eval('#search-results > li .result-summary', (ps) => ps.map((p) => p.textContent ?? ''));
      expect(summaries[0]).toBe(tool.items[0]?.summaryTruncated ? `${tool.items[0].summary}…` : tool.items[0]?.summary);

      for (const args of [{ query: '稀有度' }, { query: '攻击' }, { query: 'equ.rarity', kinds: ['rule'] }]) {
        const expected = await toolSearch({ pvfVersion: 'all', limit: 50, ...args });
        const got = await searchInPage(page, { q: args.query, ...(args.kinds ? { kind: 'rule' } : {}) });
        expect(got.ids, JSON.stringify(args)).toEqual(expected.items.map((i) => i.documentId));
        expect(got.total, JSON.stringify(args)).toBe(expected.totalMatches);
      }
    } finally {
      await context.close();
    }
  });

  it('refuses a changed shard, head or search.json with a visible error instead of results', async () => {
    const first = library({ query: '稀有' }).items[0]?.documentId ?? '';
    const shard = shardOf(first);
    const folder = path.join(siteDir, searchFolder);
    const original = await readFile(path.join(folder, shard.name), 'utf8');
    // Still valid JSON of the right shape: only the hash can tell.
    const changedShard = original.replace(/稀有/g, '稀少');
    expect(changedShard).not.toBe(original);
    const head = await readFile(path.join(folder, manifest.head.name), 'utf8');
    const changedHead = head.replace(/稀有/, '稀少');
    expect(changedHead).not.toBe(head);
    const searchJson = await readFile(path.join(folder, SEARCH_MANIFEST_NAME), 'utf8');
    const changedSearchJson = searchJson.replace(shard.sha256, sha256(changedShard));

    for (const [name, body, wanted] of [
      [shard.name, changedShard, new RegExp(`规则内容载入失败：${shard.name.replace('.', '\\.')} does not match its sha256 in search\\.json`)],
      [manifest.head.name, changedHead, /规则索引载入失败：head\.json does not match its sha256 in search\.json/],
      [SEARCH_MANIFEST_NAME, changedSearchJson, /规则索引载入失败：search\.json does not match its sha256 in the search page/],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.route(`**${searchFolder}${name}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
        await page.goto(`${server.url}search/?q=${encodeURIComponent('稀有')}`);
        await page.waitForSelector('#search-status[data-state="error"], #search-status[data-state="done"]', { timeout: 30_000 });
        expect(await page.getAttribute('#search-status', 'data-state'), name).toBe('error');
        expect(await page.textContent('#search-status'), name).toMatch(wanted);
        expect(await page.isVisible('#search-status'), name).toBe(true);
        expect(await page.locator('#search-results > li').count(), name).toBe(0);
      } finally {
        await context.close();
      }
    }
  });
});

describe('llms.txt', () => {
  it('lists the entry pages, every file type and the search in the llms.txt form, and every link resolves', async () => {
    const response = await fetch(`${server.url}llms.txt`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    expect(lines.find((l) => l !== '' && !l.startsWith('# '))).toMatch(/^> /);
    expect(text).toContain(bundle.rulesRevision);
    const sections = lines.filter((l) => l.startsWith('## '));
    expect(sections.length).toBeGreaterThanOrEqual(3);
    expect(sections.at(-1)).toBe('## Optional');
    const links = [...text.matchAll(/^- \[(?:[^\]\\]|\\.)+\]\(([^)]+)\)/gm)].map((m) => m[1] as string);
    for (const wanted of ['/', '/type/', '/search/', '/changes/', '/type/equ/', '/type/_any/']) expect(links).toContain(wanted);
    // Every link list item is a markdown link.
    expect(lines.filter((l) => l.startsWith('- ')).length).toBe(links.length);
    for (const link of new Set(links)) {
      expect(link.startsWith('/'), link).toBe(true);
      const status = (await fetch(new URL(link.slice(1), server.url))).status;
      expect(status, link).toBe(200);
    }
  });
});

describe('narrow screen', () => {
  it('folds the filters into 筛选 at 360 px, so the first result shows without scrolling; wide screens show them', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
    const page = errors.watch(await phone.newPage());
    try {
      await openSearch(page, '稀有');
      await page.waitForSelector('#search-status[data-state="done"]');
      expect(await page.evaluate(() => document.getElementById('search-filters')?.open)).toBe(false);
      expect(await page.isVisible('#search-filters > summary')).toBe(true);
      expect(await page.isVisible('#search-q')).toBe(true);
      // One query box: the header's is left out on the search page.
      expect(await page.locator('form[role="search"] input[name="q"], #search-q').count()).toBe(1);
      expect(await page.isVisible('[name="section"]')).toBe(false);
      const box = await page.locator('#search-results > li').first().boundingBox();
      expect(box).not.toBeNull();
      expect((box?.y ?? 640) + 24, 'first result starts inside the first screen').toBeLessThan(640);
      // Asked for: the filters open and work.
      await page.click('#search-filters > summary');
      expect(await page.isVisible('[name="section"]')).toBe(true);
      const got = await searchInPage(page, { q: '稀有', kind: 'rule' });
      expect(got.ids).toEqual(library({ query: '稀有', kinds: ['rule'] }).items.map((i) => i.documentId));
      expect(await page.textContent('#search-filters > summary')).toContain('1');
    } finally {
      await phone.close();
    }
    // Without JavaScript too: folded on the phone (a tap opens it), shown on a wide screen.
    for (const [width, shown] of [[360, false], [1280, true]] as const) {
      const plain = await browser.newContext({ viewport: { width, height: 640 }, javaScriptEnabled: false });
      try {
        const still = await plain.newPage();
        await still.goto(`${server.url}search/?q=x`);
        expect(await still.isVisible('[name="section"]'), `${width} px without JavaScript`).toBe(shown);
        expect(await still.isVisible('#search-filters > summary'), `${width} px without JavaScript`).toBe(!shown);
      } finally {
        await plain.close();
      }
    }
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const large = errors.watch(await wide.newPage());
    try {
      await large.goto(`${server.url}search/`);
      expect(await large.evaluate(() => document.getElementById('search-filters')?.open)).toBe(true);
      expect(await large.isVisible('[name="section"]')).toBe(true);
      expect(await large.isVisible('#search-filters > summary')).toBe(false);
    } finally {
      await wide.close();
    }
  });
});

describe('console', () => {
  it('logged no errors on the pages that were not tampered with', () => {
    expect(errors.errors).toEqual([]);
  });
});
