/**
 * Finding one's way on the reference site (issue 17, items 1 and 2): the file-type index in the header
 * navigation, the type pages with their sections grouped and titled in Chinese, the sidebar, headings
 * with anchors and the table of contents on document pages, breadcrumbs whose every level is a link, and
 * the changes page in words (no JSON) that fits a 360 px phone.
 *
 * The site is built like a user's: the builtin layer plus a user layer, twice, the second time with the
 * user layer edited (test/fixtures/layers/site-user-v1 → site-user-v2: a title, a long content, the
 * extensions, trust and sources changed, a preview block added, enum values changed, a builtin rule
 * disabled, a relation and a rendering rule changed, one rule removed and one added), so the changes page
 * compares the two. The pure formatting of diff parts is checked first, without a browser.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { SnapshotDiffSchema, type SnapshotDiff } from '../../runtime/diff/diff-schema.js';
import { partView, TEXT_SHOWN, valueView, viewTexts } from '../../site/src/lib/change-view.js';
import { fileTypeName } from '../../site/src/lib/file-types.js';
import { buildSiteModel } from '../../site/src/lib/model.js';
import { sectionGroupOf } from '../../site/src/lib/section-groups.js';
import { SIDEBAR_SECTION_WINDOW, sidebarView } from '../../site/src/lib/sidebar.js';
import { launchChromium, PageErrors, pvfdocOk, requireChromium, ROOT, serveStatic } from './helpers.js';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { documentElement: { scrollWidth: number; clientWidth: number }; body: object };
declare function getComputedStyle(element: object): { backgroundColor: string; opacity: string; display: string };

const V1 = path.join(ROOT, 'test/fixtures/layers/site-user-v1');
const V2 = path.join(ROOT, 'test/fixtures/layers/site-user-v2');

describe('diff parts in words (site/src/lib/change-view.ts)', () => {
  it('shows a status object as its Chinese label and reason', () => {
    const view = partView({ part: 'status', old: { status: 'effective', reason: null }, new: { status: 'disabled', reason: 'disabled by layer "x"' } });
    expect(view.label).toBe('状态');
    expect(view.old).toEqual({ kind: 'status', label: '生效', reason: null });
    expect(view.new).toEqual({ kind: 'status', label: '已禁用', reason: 'disabled by layer "x"' });
  });

  it('shows lists as lists, enumeration values by label, and unset values in words', () => {
    const ext = partView({ part: 'match.extensions', old: ['.equ'], new: ['.equ', '.stk'] });
    expect(ext.label).toBe('匹配后缀');
    expect(ext.new.kind).toBe('list');
    expect(viewTexts(ext.new)).toEqual(['.equ', '.stk']);
    expect(viewTexts(partView({ part: 'trust', old: null, new: 'confirmed' }).old)).toEqual(['未注明']);
    expect(viewTexts(partView({ part: 'trust', old: null, new: 'confirmed' }).new)).toEqual(['已确认（confirmed）']);
    expect(viewTexts(partView({ part: 'target.notInside', old: null, new: ['a'] }).old)).toEqual(['未设置']);
    expect(viewTexts(partView({ part: 'annotation.sentinels', old: [['-1', '无']], new: [] }).old)).toEqual(['-1 = 无']);
    expect(viewTexts(partView({ part: 'target.range', old: { start: 1, endExclusive: 3 }, new: null }).old)).toEqual(['[1, 3)']);
  });

  it('cuts long text and keeps the whole text', () => {
    const long = '长'.repeat(TEXT_SHOWN * 2);
    const view = valueView(long, 'annotation.content');
    expect(view.kind).toBe('text');
    if (view.kind !== 'text') return;
    expect([...view.text].length).toBe(TEXT_SHOWN);
    expect(view.full).toBe(long);
    expect(valueView('短', 'annotation.content')).toEqual({ kind: 'text', text: '短', full: null, code: false });
  });

  it('shows two objects by the members that differ, never as JSON', () => {
    const old = { id: 'r', annotation: { title: 'a', type: 'text' }, match: { extensions: ['.equ'] } };
    const now = { id: 'r', annotation: { title: 'b', type: 'text' }, match: { extensions: ['.equ'] }, preview: { role: 'x', order: 2 } };
    const view = partView({ part: 'raw', old, new: now });
    expect(view.old.kind).toBe('fields');
    if (view.old.kind !== 'fields' || view.new.kind !== 'fields') throw new Error('expected members');
    expect(view.old.entries.map((e) => e.name)).toEqual(['annotation.title', 'preview.role', 'preview.order']);
    expect(viewTexts(view.old)).toEqual(['annotation.title', 'a', 'preview.role', '未设置', 'preview.order', '未设置']);
    expect(viewTexts(view.new)).toEqual(['annotation.title', 'b', 'preview.role', 'x', 'preview.order', '2']);
    expect(view.note).toContain('其余 3 项相同');
    const single = partView({ part: 'preview', old: null, new: { providers: ['equ'], role: 'x', group: 'g', order: null, format: 'f', label: null } });
    for (const text of [...viewTexts(single.old), ...viewTexts(single.new)]) expect(text).not.toMatch(/[{[]"/);
  });
});

describe('section groups and file-type names', () => {
  it('takes a preview group first, then words of the name, then 其他', () => {
    expect(sectionGroupOf('price', ['footer']).label).toBe('交易');
    expect(sectionGroupOf('physical attack').label).toBe('属性数值');
    expect(sectionGroupOf('name').label).toBe('基本信息');
    // "=name" matches the whole name only: a map's name is not the item's name.
    expect(sectionGroupOf('map name').label).toBe('地图与任务');
    expect(sectionGroupOf('쿨타입 그룹').label).toBe('其他');
    expect(sectionGroupOf('frobnicate').label).toBe('其他');
  });

  it('prefers the name a path rule gives the type', () => {
    expect(fileTypeName('.equ', [])).toBe('装备');
    expect(fileTypeName('.zzz', [])).toBe('');
  });
});

let work: string;
let bundle: Bundle;
let diff: SnapshotDiff;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let desktop: BrowserContext;
let page: Page;
const errors = new PageErrors();

function docWhere(id: string, kind: 'rule' | 'field') {
  const doc = bundle.documents.find((d) => d.id === id && d.kind === kind && d.status === 'effective');
  if (!doc) throw new Error(`the test bundle has no effective ${kind} ${id}`);
  return doc;
}

describe('site navigation in headless Chromium', () => {
  beforeAll(async () => {
    requireChromium();
    work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-site-nav-'));
    const snapshots = path.join(work, 'snapshots');
    await pvfdocOk(['build', '--layer', path.join(ROOT, 'rules/builtin'), '--layer', V1, '--out', snapshots]);
    const oldRevision = path.basename(await resolveCurrentBundleDir(snapshots));
    // Distinct manifest times, so the site finds the first build as the previous snapshot.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await pvfdocOk(['build', '--layer', path.join(ROOT, 'rules/builtin'), '--layer', V2, '--out', snapshots]);
    await pvfdocOk(['site', '--snapshot', snapshots, '--out', path.join(work, 'site'), '--quiet']);
    bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
    const json = await pvfdocOk(['diff', oldRevision, 'current', '--snapshots', snapshots, '--format', 'json']);
    diff = SnapshotDiffSchema.parse(JSON.parse(json.stdout));
    server = await serveStatic(path.join(work, 'site'));
    browser = await launchChromium();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = errors.watch(await desktop.newPage());
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('links the type index from the header navigation, and it lists every file type of the bundle', async () => {
    await page.goto(server.url);
    const link = page.locator('header nav.nav a', { hasText: '文件类型' });
    expect(await link.getAttribute('href')).toBe('/type/');
    await link.click();
    await page.waitForURL(`${server.url}type/`);
    expect(await page.getAttribute('header nav.nav a[href="/type/"]', 'aria-current')).toBe('page');

    const expected = [...new Set(bundle.documents.flatMap((d) => d.match.extensions.map((e) => e.trim().toLowerCase())))].sort();
    const rows = await page.$$eval('[data-testid="type-index"] tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-extension') ?? ''));
    expect(rows).toEqual([...expected, '']);
    const equ = page.locator('[data-testid="type-index"] tbody tr[data-extension=".equ"]');
    expect(await equ.locator('td').nth(1).textContent()).toBe('装备');
    const equDocs = bundle.documents.filter((d) => d.match.extensions.some((e) => e.trim().toLowerCase() === '.equ')).length;
    expect(Number(await equ.locator('td').nth(3).textContent())).toBe(equDocs);
    await equ.locator('a').click();
    await page.waitForURL(`${server.url}type/equ/`);
  });

  it('shows [price] with 价格 on the .equ page, in a group, with the sidebar on wide screens', async () => {
    await page.goto(`${server.url}type/equ/`);
    const price = page.locator('h3#s-price');
    expect(await price.locator('code').first().textContent()).toBe('[price]');
    expect(await price.locator('[data-testid="section-title"]').textContent()).toContain('价格');
    // builtin.equ.price carries preview.group "footer", the tooltip part prices sit in: group 交易.
    const group = page.locator('section.type-group', { has: page.locator('h3#s-price') });
    expect(await group.getAttribute('data-group')).toBe('trade');
    expect(await group.locator('h2').first().textContent()).toContain('交易');
    // The group's section index lists it with its title too.
    expect(await group.locator('ul.section-index li', { hasText: '[price]' }).textContent()).toContain('价格');

    const sidebar = page.locator('[data-testid="sidebar"]');
    expect(await sidebar.isVisible()).toBe(true);
    expect(await sidebar.locator('.side-types > li.current > a').getAttribute('href')).toBe('/type/equ/');
    expect(await sidebar.locator('.side-types > li.current a[href="/type/equ/#s-price"]').count()).toBe(1);
  });

  it('gives every heading of a document page an anchor, and a table of contents', async () => {
    const doc = docWhere('builtin.equ.rarity', 'field');
    await page.goto(`${server.url}doc/${doc.documentId}/`);
    const headings = await page.$$eval('main h2, main h3', (hs) =>
      hs.map((h) => ({ id: h.id, links: [...h.querySelectorAll('a.anchor')].map((a) => a.getAttribute('href')) })),
    );
    expect(headings.length).toBeGreaterThan(5);
    for (const h of headings) {
      expect(h.id, JSON.stringify(h)).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(h.links, h.id).toEqual([`#${h.id}`]);
    }
    expect(new Set(headings.map((h) => h.id)).size).toBe(headings.length);

    const toc = await page.$$eval('[data-testid="toc"] a', (as) => as.map((a) => ({ href: a.getAttribute('href') ?? '', text: a.textContent ?? '' })));
    expect(toc.map((t) => t.text)).toEqual(expect.arrayContaining(['内容', '概要', '标记布局', '枚举值', '原始定义']));
    for (const t of toc) expect(headings.map((h) => `#${h.id}`)).toContain(t.href);
    await page.locator('[data-testid="toc"] a', { hasText: '标记布局' }).click();
    expect(new URL(page.url()).hash).toBe('#layout');

    // The "#" shows when the heading is hovered.
    const anchor = page.locator('h2#summary a.anchor');
    expect(await anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('0');
    await page.hover('h2#summary');
    await expect.poll(() => anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('1');
  });

  it('lists only a window of a long group around the current section in a definition page sidebar', () => {
    const model = buildSiteModel(bundle);
    const type = model.types.find((t) => t.groups.some((g) => g.sections.length > SIDEBAR_SECTION_WINDOW + 10));
    const group = type?.groups.find((g) => g.sections.length > SIDEBAR_SECTION_WINDOW + 10);
    if (!type || !group) throw new Error('the builtin bundle should have a group longer than the sidebar window');
    for (const at of [0, group.sections.length >> 1, group.sections.length - 1]) {
      const key = group.sections[at]?.key ?? '';
      const view = sidebarView(model, { extension: type.extension, sectionKey: key });
      const shown = view.find((t) => t.current)?.groups.find((g) => g.open);
      expect(shown?.sections).toHaveLength(SIDEBAR_SECTION_WINDOW);
      expect(shown?.sections?.filter((s) => s.current)).toHaveLength(1);
      expect(shown?.hidden).toBe(group.sections.length - SIDEBAR_SECTION_WINDOW);
    }
    // The type's own page still lists every section of every group.
    const all = sidebarView(model, { extension: type.extension, allSections: true }).find((t) => t.current);
    expect(all?.groups.reduce((n, g) => n + (g.sections?.length ?? 0), 0)).toBe(type.groups.reduce((n, g) => n + g.sections.length, 0));
  });

  it('links every level of the breadcrumb', async () => {
    const doc = docWhere('builtin.equ.rarity', 'field');
    for (const [url, levels] of [
      [`doc/${doc.documentId}/`, ['首页', '文件类型', '.equ', '[rarity]', doc.title]],
      ['type/equ/', ['首页', '文件类型', '.equ']],
      ['type/', ['首页', '文件类型']],
      ['section/rarity/', ['首页', '段', '[rarity]']],
      ['changes/', ['首页', '变更']],
    ] as const) {
      await page.goto(`${server.url}${url}`);
      const items = await page.$$eval('[data-testid="breadcrumb"] li', (lis) =>
        lis.map((li) => ({ text: li.textContent?.trim() ?? '', links: [...li.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '') })),
      );
      expect(items.map((i) => i.text), url).toEqual(levels);
      for (const item of items) expect(item.links.length, `${url}: ${item.text}`).toBeGreaterThan(0);
      expect(await page.getAttribute('[data-testid="breadcrumb"] li:last-child a', 'aria-current'), url).toBe('page');
      // Every level leads to a page of the site.
      for (const href of items.flatMap((i) => i.links)) {
        const response = await fetch(new URL(href, server.url));
        expect(response.status, `${url}: ${href}`).toBe(200);
      }
    }
  });

  it('links the rule-file schemas and llms.txt from the footer', async () => {
    await page.goto(server.url);
    const all = await page.$$eval('footer a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(all.pop()).toBe('/llms.txt');
    const llms = await fetch(new URL('/llms.txt', server.url));
    expect(llms.status).toBe(200);
    expect(await llms.text()).toMatch(/^# /);
    const links = all;
    expect(links).toEqual(['annotations', 'lists', 'rendering', 'layer'].map((name) => `/schemas/${name}.schema.json`));
    for (const href of links) {
      const response = await fetch(new URL(href, server.url));
      expect(response.status, href).toBe(200);
      expect((await response.json()) as object, href).toHaveProperty('$schema');
    }
  });

  it('tells the changes in words, field by field, with no JSON', async () => {
    await page.goto(`${server.url}changes/`);
    expect(await page.getAttribute('[data-testid="changes-status"]', 'data-status')).toBe('diff');
    const text = (await page.textContent('main')) ?? '';
    expect(text).not.toContain('{"');
    expect(text).not.toContain('["');

    // One row per part of the diff's own model: layers, documents, relations and rendering rules.
    const parts = [
      ...diff.bundle.layers.flatMap((l) => l.parts),
      ...diff.fileTypes.flatMap((t) => t.documents.flatMap((d) => d.parts)),
      ...diff.relations.flatMap((r) => r.parts),
      ...diff.rendering.flatMap((r) => r.parts),
    ];
    expect(parts.length).toBeGreaterThan(10);
    expect(await page.locator('.change-part[data-part]').count()).toBe(parts.length);
    for (const part of ['status', 'match.extensions', 'annotation.content', 'trust', 'sources', 'preview', 'raw', 'listPath', 'format.tokensPerLine', 'disable']) {
      expect(parts.some((p) => p.part === part), part).toBe(true);
    }

    const status = page.locator('.change-part[data-part="status"]').first();
    expect(await status.locator('dt').textContent()).toContain('状态');
    expect(await status.locator('.change-old').textContent()).toContain('生效');
    expect(await status.locator('.change-new').textContent()).toContain('已禁用');
    expect(await status.locator('.change-new').textContent()).toContain('disabled by layer "my-mod"');

    const extensions = page.locator('.change-part[data-part="match.extensions"]').first();
    expect(await extensions.locator('.change-new li').allTextContents()).toEqual(['.equ', '.stk']);

    const v2 = JSON.parse(await readFile(path.join(V2, 'annotations.json'), 'utf8')) as { rules: { id: string; annotation: { content: string } }[] };
    const long = v2.rules.find((r) => r.id === 'my.note')?.annotation.content ?? '';
    const content = page.locator('.change-part[data-part="annotation.content"]').first();
    expect(await content.locator('.change-new details.change-long .text-block').textContent()).toBe(long);
    expect(await content.locator('.change-new details.change-long').getAttribute('open')).toBeNull();

    // The enum change: added, removed and relabelled values.
    const enumText = await page.locator('h3', { hasText: '枚举值变化' }).locator('xpath=following-sibling::ul[1]').textContent();
    expect(enumText).toContain('神话');
    expect(enumText).toContain('稀有 → 很稀有');

    // The terminal text is a file of its own.
    const plain = await fetch(new URL('changes/diff.txt', server.url));
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('snapshot diff');
  });

  it('fits a 360 px phone without horizontal scrolling, sidebar hidden', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    try {
      const p = errors.watch(await phone.newPage());
      const doc = docWhere('builtin.equ.rarity', 'field');
      for (const url of ['changes/', 'type/', 'type/equ/', `doc/${doc.documentId}/`]) {
        await p.goto(`${server.url}${url}`);
        const size = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(size.scroll, url).toBeLessThanOrEqual(size.client);
        if (url !== 'changes/') expect(await p.locator('[data-testid="sidebar"]').isVisible(), url).toBe(false);
      }
    } finally {
      await phone.close();
    }
  });

  it('renders on desktop and phone, light and dark, without console errors', async () => {
    const doc = docWhere('builtin.equ.rarity', 'field');
    const backgrounds = new Set<string>();
    for (const [width, scheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [360, 'light'],
      [360, 'dark'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
      try {
        const p = errors.watch(await context.newPage());
        for (const url of ['', 'type/', 'type/equ/', `doc/${doc.documentId}/`, 'changes/', 'section/price/']) {
          const response = await p.goto(`${server.url}${url}`);
          expect(response?.status(), url).toBe(200);
        }
        backgrounds.add(`${scheme}:${await p.evaluate(() => getComputedStyle(document.body).backgroundColor)}`);
      } finally {
        await context.close();
      }
    }
    expect(backgrounds).toEqual(new Set(['light:rgb(255, 255, 255)', 'dark:rgb(13, 17, 23)']));
    expect(errors.errors).toEqual([]);
  });
});
