/**
 * Rule text is shown as text, never as HTML: a tiny layer whose titles, contents, section, enum labels
 * and relation hold <script>, HTML entities, event handlers and Markdown, built twice (so the changes
 * page compares two snapshots), browsed in headless Chromium. Also a large enum split over pages.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { launchChromium, PageErrors, pvfdocOk, requireChromium, serveStatic, siteSearch } from './helpers.js';

const TITLE = '<script>window.__pvfdocXss = 1</script>标题 &amp; <b>粗</b>';
const CONTENT = [
  '&lt;b&gt; &amp; &#x3C;img src=x onerror="window.__pvfdocXss=2"&#x3E;',
  '**粗体** _斜体_ `代码`',
  '# 不是标题',
  '- 不是列表',
  '[链接](javascript:window.__pvfdocXss=3) <img src=x onerror="window.__pvfdocXss=3">',
  '  两个空格开头，</div></pre><script>window.__pvfdocXss=4</script>',
].join('\n');
const DESCRIPTION = '</dd></dl><iframe src="javascript:window.__pvfdocXss=5"></iframe> 说明 <!-- 注释 -->';
const SECTION = '<b>段</b> & "引号"';
const RELATION = 'rel<script>&amp;';
const LABEL = '<i>斜</i> &copy; <script>window.__pvfdocXss=6</script>';
const BIG_ENUM = 450;

function layer(version: 1 | 2) {
  const values: Record<string, string> = {};
  for (let i = 0; i < BIG_ENUM; i++) values[`k${String(i).padStart(3, '0')}`] = i === 7 ? LABEL : `值 ${i}`; // not integer-like: JSON keeps this order
  values['&amp;'] = '<b>键是实体</b>';
  const rules: unknown[] = [
    {
      id: 'xss.title',
      description: DESCRIPTION,
      match: { extensions: ['.equ'] },
      target: { kind: 'token', section: SECTION, index: 0, recordTokens: 3, offset: 1, standaloneValues: [-1], contextIndex: 2 },
      annotation: { title: version === 1 ? TITLE : `${TITLE} v2`, type: 'text', content: CONTENT },
    },
    {
      id: 'xss.enum',
      match: { extensions: ['.equ'] },
      target: { kind: 'token', section: 'rarity', index: 0 },
      annotation: { title: '大枚举 <u>u</u>', type: 'enum', values },
    },
    {
      id: 'xss.ref',
      match: { extensions: ['.equ'] },
      target: { kind: 'token', section: 'input', index: 0 },
      annotation: { title: '引用', type: 'reference', relation: RELATION },
    },
  ];
  if (version === 1) rules.push({ id: 'xss.removed', match: {}, target: { kind: 'section', section: 'gone' }, annotation: { title: '<em>将被删除</em>', type: 'text' } });
  else rules.push({ id: 'xss.added', match: {}, target: { kind: 'section', section: 'new' }, annotation: { title: '<em>新增</em>', type: 'text' } });
  return {
    'layer.json': { name: 'xss', kind: 'builtin', description: '<script>window.__pvfdocXss=7</script> 层说明', pvfVersions: ['90US', '90CN', '110US'] },
    'annotations.json': { version: 1, description: 'site text test', fields: [], rules },
    'lists.json': { version: 1, relations: { [RELATION]: { kind: 'list', listPath: 'list/<a>&amp;.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' } } },
    'rendering.json': { version: 1, rules: [] },
  };
}

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { querySelectorAll(selector: string): { length: number } };
declare const window: object;

let work: string;
let bundle: Bundle;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let page: Page;
const errors = new PageErrors();

beforeAll(async () => {
  requireChromium();
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-site-text-'));
  const snapshots = path.join(work, 'snapshots');
  for (const version of [1, 2] as const) {
    const dir = path.join(work, `layer-v${version}`);
    await mkdir(dir, { recursive: true });
    for (const [name, json] of Object.entries(layer(version))) await writeFile(path.join(dir, name), JSON.stringify(json, null, 2));
    await pvfdocOk(['build', '--no-builtin', '--layer', dir, '--out', snapshots]);
    // Distinct manifest times, so the site finds v1 as the previous snapshot.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await pvfdocOk(['site', '--snapshot', snapshots, '--out', path.join(work, 'site'), '--quiet']);
  bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
  server = await serveStatic(path.join(work, 'site'));
  browser = await launchChromium();
  page = errors.watch(await browser.newPage());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function docId(id: string): string {
  const doc = bundle.documents.find((d) => d.id === id);
  if (!doc) throw new Error(`no document ${id}`);
  return doc.documentId;
}

/** Nothing from rule text became markup or ran: no injected script, image, frame or formatting. */
async function expectInert(url: string): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pvfdocXss?: unknown }).__pvfdocXss), url).toBeUndefined();
  const injected = await page.evaluate(() => ({
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    markup: document.querySelectorAll('main img, main iframe, main b, main i, main u, main em, main strong').length,
  }));
  expect(injected, url).toEqual({ inlineScripts: 0, markup: 0 });
}

describe('rule text with HTML, entities and Markdown', () => {
  it('is shown verbatim on the document page', async () => {
    await page.goto(`${server.url}doc/${docId('xss.title')}/`);
    expect(await page.textContent('[data-testid="doc-title"]')).toBe(`${TITLE} v2`);
    expect(await page.textContent('[data-testid="doc-content"]')).toBe(CONTENT);
    expect(await page.textContent('[data-testid="doc-description"]')).toBe(DESCRIPTION);
    expect(await page.title()).toContain(`${TITLE} v2`);
    expect(await page.textContent('[data-testid="layout-drawing"]')).toContain(`[${SECTION}]`);
    expect(await page.textContent('[data-testid="raw"]')).toContain(JSON.stringify(CONTENT));
    await expectInert('doc');
  });

  it('is shown verbatim on section, type, relation, overview and search pages', async () => {
    for (const url of ['type/equ/', 'sections/', 'relations/', '']) {
      await page.goto(`${server.url}${url}`);
      await expectInert(url);
    }
    await page.goto(`${server.url}sections/`);
    await page.locator('main').getByRole('link', { name: `[${SECTION}]`, exact: true }).click();
    expect(await page.textContent('h1')).toBe(`段 [${SECTION}]`);
    await expectInert('section');
    await page.goto(`${server.url}doc/${docId('xss.ref')}/`);
    expect(await page.textContent('[data-testid="relation"]')).toContain('list/<a>&amp;.lst');
    await page.locator('[data-testid="relation"]').getByRole('link', { name: RELATION, exact: true }).click();
    expect(await page.textContent('h1')).toBe(`关联 ${RELATION}`);
    await expectInert('relation');

    const found = await siteSearch(page, server.url, { q: '标题' });
    expect(found.ids).toEqual([docId('xss.title')]);
    expect(await page.textContent('#search-results .result-title')).toBe(`${TITLE} v2`);
    await expectInert('search');
  });

  it('pages a large enum and shows labels as text', async () => {
    const id = docId('xss.enum');
    await page.goto(`${server.url}doc/${id}/`);
    expect(await page.locator('[data-testid="enum-table"] tbody tr').count()).toBe(200);
    expect(await page.textContent('[data-testid="enum-table"] tbody tr:nth-child(8) td:nth-child(3)')).toBe(LABEL);
    await expectInert('enum page 1');
    await page.locator('nav.pager').getByRole('link', { name: '3', exact: true }).click();
    expect(page.url()).toContain(`/doc/${id}/values/3/`);
    const last = await page.$$eval('[data-testid="enum-table"] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(last).toHaveLength(BIG_ENUM + 1 - 400);
    expect(last.at(-1)).toContain('<b>键是实体</b>');
    expect(last.at(-1)).toContain('&amp;');
    await expectInert('enum page 3');
  });

  it('is shown verbatim on the changes page, which compares with the previous snapshot', async () => {
    await page.goto(`${server.url}changes/`);
    expect(await page.getAttribute('[data-testid="changes-status"]', 'data-status')).toBe('diff');
    const text = await page.textContent('main');
    expect(text).toContain('xss.added');
    expect(text).toContain('xss.removed');
    expect(text).toContain(`${TITLE} v2`);
    await expectInert('changes');
  });

  it('logged no console errors', () => {
    expect(errors.errors).toEqual([]);
  });
});
