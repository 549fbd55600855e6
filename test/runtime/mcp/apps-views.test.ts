/**
 * The MCP Apps views in headless Chromium, inside a minimal host (apps-host.ts: the package's AppBridge,
 * the view in a sandboxed iframe): real tool results from the real server on examples/workspace, the
 * view's own calls forwarded to that server. Every request the page makes is intercepted and counted
 * (there must be none), and any console error or page error fails the test.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import type { GetOutput } from '../../../runtime/get/get-schema.js';
import type { SearchOutput } from '../../../runtime/search/search-schema.js';
import { CHROMIUM, PageErrors, requireChromium } from '../../site/helpers.js';
import { connectExampleServer, EXAMPLE_EQU, EXAMPLE_WORKSPACE_ID, openView, type ExampleServer, type OpenedView } from './apps-host.js';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
interface PageElement {
  getAttribute(name: string): string | null;
}
interface PageGlobal {
  document: { querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>; querySelector(selector: string): { scrollTop: number } | null; body: PageElement };
  getComputedStyle(element: PageElement): { backgroundColor: string };
}

let server: ExampleServer;
let browser: Browser;
let context: BrowserContext;
let errors: PageErrors;
let requests: string[];

beforeAll(async () => {
  server = await connectExampleServer();
  // Fails (never skips) without Chromium. With site isolation, Chromium runs the view's sandboxed
  // (opaque-origin) iframe in a process of its own whose requests request interception does not see;
  // in one process every request of the view passes the route below (the first test proves it).
  requireChromium();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process'],
  });
});

afterAll(async () => {
  await (browser as Browser | undefined)?.close();
  await (server as ExampleServer | undefined)?.close();
});

async function newPage(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme });
  errors = new PageErrors();
  requests = [];
  // Nothing may leave the page: every request is recorded and refused.
  context.on('request', (request) => requests.push(request.url()));
  await context.route('**/*', (route) => route.abort());
  return errors.watch(await context.newPage());
}

afterEach(async () => {
  await (context as BrowserContext | undefined)?.close();
  expect(errors.errors).toEqual([]);
  expect(requests).toEqual([]);
});

const explainArgs = () => ({ workspaceId: EXAMPLE_WORKSPACE_ID, expectedRevision: server.revision, filePath: EXAMPLE_EQU });

async function openExplain(page: Page, extra: { theme?: 'light' | 'dark'; styleVariables?: Record<string, string>; section?: string } = {}): Promise<{ view: OpenedView; out: ExplainOutput }> {
  const { section, ...host } = extra;
  const args = { ...explainArgs(), ...(section === undefined ? {} : { section }) };
  const result = await server.call('pvf_annotation_explain', args);
  expect(result.isError).toBeFalsy();
  const view = await openView(page, { client: server.client, tool: server.tool('pvf_annotation_explain'), html: await server.viewOf('pvf_annotation_explain'), toolArguments: args, toolResult: result, ...host });
  return { view, out: result.structuredContent as unknown as ExplainOutput };
}

/** Background colour of the view's body as [r, g, b]. */
async function bodyColour(view: OpenedView): Promise<number[]> {
  const colour = await view.frame().evaluate(() => {
    const page = globalThis as unknown as PageGlobal;
    return page.getComputedStyle(page.document.body).backgroundColor;
  });
  return (colour.match(/\d+/g) ?? []).slice(0, 3).map(Number);
}

const isDark = (rgb: number[]) => rgb.reduce((a, b) => a + b, 0) / 3 < 90;

describe('the test host', () => {
  it('sees every request of a sandboxed view, so "no requests" means none were made', async () => {
    const page = await newPage();
    await page.setContent('<iframe sandbox="allow-scripts" srcdoc=\'<img src="https://example.org/probe.png"><script>fetch("https://example.org/probe").catch(() => {})</script>\'></iframe>');
    await expect.poll(() => [...requests].sort()).toEqual(['https://example.org/probe', 'https://example.org/probe.png']);
    // The refused requests are errors too; close first so that none arrives after the reset.
    await context.close();
    requests.length = 0;
    errors.errors.length = 0;
  });
});

describe('explain view', () => {
  it("shows the .equ's lines with its annotated tokens marked, and a picked token's document", async () => {
    const page = await newPage();
    const { view, out } = await openExplain(page, { theme: 'light' });
    const frame = view.frame();
    const read = await server.call('read_file', { workspaceId: EXAMPLE_WORKSPACE_ID, filePath: EXAMPLE_EQU });
    const file = read.structuredContent as { text: string; lineCount: number };

    await frame.waitForFunction((n) => (globalThis as unknown as PageGlobal).document.querySelectorAll('.line').length === n, file.lineCount);
    const lines = await frame.$$eval('.line .src', (spans) => spans.map((s) => s.textContent ?? ''));
    expect(lines).toEqual(file.text.split('\n'));
    expect(await frame.textContent('header h1')).toBe(EXAMPLE_EQU);

    // Every annotation of the page is marked, with its type, exactly over its range.
    const marked = await frame.$$eval('.tok', (tokens) => tokens.map((t) => ({ a: Number(t.getAttribute('data-a')), cls: t.className, text: t.textContent ?? '' })));
    expect(new Set(marked.map((m) => m.a)).size).toBe(out.annotations.length);
    out.annotations.forEach((a, i) => {
      const pieces = marked.filter((m) => m.a === i);
      expect(pieces.map((p) => p.text).join('\n'), `${a.title} at ${a.start.line}:${a.start.column}`).toBe(file.text.slice(a.range.start, a.range.end));
      for (const p of pieces) expect(p.cls).toContain(`t-${a.type}`);
    });

    // The rarity enum (稀有度 4 = 史诗): its document comes from pvf_annotation_get through the host.
    const rarity = out.annotations.findIndex((a) => a.section === 'rarity' && a.type === 'enum');
    expect(rarity).toBeGreaterThanOrEqual(0);
    const annotation = out.annotations[rarity] as ExplainOutput['annotations'][number];
    const documentId = annotation.documentIds[0] as string;
    await frame.click(`.tok[data-a="${rarity}"]`);
    await frame.waitForSelector(`.panel .document[data-document-id="${documentId}"]`);
    expect(await frame.textContent('.panel .selected h2')).toContain('稀有度');
    const panel = (await frame.textContent('.panel')) ?? '';
    expect(panel).toContain('史诗');
    const get = (await server.call('pvf_annotation_get', { documentId, rulesRevision: out.rulesRevision, value: '4' })).structuredContent as unknown as GetOutput;
    expect(await frame.textContent('.panel .document-title')).toBe(get.document.title);
    expect(panel).toContain(get.document.content.split('\n')[0] as string);
    expect(await frame.getAttribute(`.tok[data-a="${rarity}"]`, 'class')).toContain('sel');

    expect(view.toolCalls.map((c) => c.name)).toEqual(['read_file', 'pvf_annotation_get']);
    expect(view.toolCalls[0]?.arguments).toEqual({ workspaceId: EXAMPLE_WORKSPACE_ID, filePath: out.filePath });
    expect(view.toolCalls[1]?.arguments).toEqual({ documentId, rulesRevision: out.rulesRevision, value: '4' });
    expect(view.toolCalls.every((c) => !c.isError)).toBe(true);
    expect(view.modelContext.at(-1)?.structuredContent).toMatchObject({ documentId, filePath: out.filePath, line: annotation.start.line });
    await view.close();
  });

  it('shows what a reference token points at, resolved or missing', async () => {
    const page = await newPage();
    const { view, out } = await openExplain(page, { section: 'skill data up' });
    const frame = view.frame();
    const resolved = out.annotations.findIndex((a) => a.reference?.resolutionStatus === 'resolved');
    const missing = out.annotations.findIndex((a) => a.reference?.resolutionStatus === 'missing');
    expect(resolved).toBeGreaterThanOrEqual(0);
    expect(missing).toBeGreaterThanOrEqual(0);
    const target = out.annotations[resolved]?.reference as NonNullable<ExplainOutput['annotations'][number]['reference']>;
    // The section lies far down the file: the code pane starts scrolled to it.
    await frame.waitForSelector('.tok');
    expect(await frame.evaluate(() => (globalThis as unknown as PageGlobal).document.querySelector('.code')?.scrollTop ?? 0)).toBeGreaterThan(1000);
    await frame.click(`.tok.t-reference[data-a="${resolved}"]`);
    await frame.waitForSelector(`.panel .selected[data-selected="${resolved}"]`);
    const panel = (await frame.textContent('.panel .selected')) ?? '';
    expect(panel).toContain(target.name as string);
    expect(panel).toContain(target.path as string);
    await frame.click(`.tok.t-reference[data-a="${missing}"]`);
    await frame.waitForSelector(`.panel .selected[data-selected="${missing}"]`);
    expect(await frame.textContent('.panel .selected')).toContain('工作区里没有');
    await frame.waitForSelector('.panel .document');
    expect(view.toolCalls.filter((c) => c.isError)).toEqual([]);
    await view.close();
  });

  it('pages through nextCursor by calling explain again with the same arguments', async () => {
    const page = await newPage();
    const { view, out } = await openExplain(page);
    const frame = view.frame();
    expect(out.nextCursor).not.toBeNull();
    await frame.waitForSelector('.tok');
    const distinct = () => frame.$$eval('.tok', (tokens) => new Set(tokens.map((t) => t.getAttribute('data-a'))).size);
    expect(await distinct()).toBe(out.annotations.length);
    await frame.click('button.more');
    await frame.waitForFunction((n) => new Set([...(globalThis as unknown as PageGlobal).document.querySelectorAll('.tok')].map((t) => t.getAttribute('data-a'))).size > n, out.annotations.length);
    const second = (await server.call('pvf_annotation_explain', { ...explainArgs(), cursor: out.nextCursor })).structuredContent as unknown as ExplainOutput;
    expect(await distinct()).toBe(out.annotations.length + second.annotations.length);
    const explainCalls = view.toolCalls.filter((c) => c.name === 'pvf_annotation_explain');
    expect(explainCalls.map((c) => c.arguments)).toEqual([{ ...explainArgs(), cursor: out.nextCursor }]);
    await view.close();
  });

  it('shows a tool error as its text', async () => {
    const page = await newPage();
    const args = { ...explainArgs(), expectedRevision: server.revision + 7 };
    const result = await server.call('pvf_annotation_explain', args);
    expect(result.isError).toBe(true);
    const view = await openView(page, { client: server.client, tool: server.tool('pvf_annotation_explain'), html: await server.viewOf('pvf_annotation_explain'), toolArguments: args, toolResult: result });
    await view.frame().waitForSelector('.status[data-state="error"]');
    expect(await view.frame().textContent('.status')).toContain('STALE_WORKSPACE');
    expect(view.toolCalls).toEqual([]);
    await view.close();
  });

  it('puts rule and file text in as text, never as markup', async () => {
    const page = await newPage();
    const args = explainArgs();
    const result = await server.call('pvf_annotation_explain', args);
    const out = structuredClone(result.structuredContent) as unknown as ExplainOutput;
    const markup = '<img src="https://example.org/x.png" onerror="alert(1)"><script>alert(2)</script>';
    const first = out.annotations[0] as ExplainOutput['annotations'][number];
    first.title = markup;
    first.summary = markup;
    out.pathContext = out.pathContext.map((p) => ({ ...p, title: markup }));
    const view = await openView(page, { client: server.client, tool: server.tool('pvf_annotation_explain'), html: await server.viewOf('pvf_annotation_explain'), toolArguments: args, toolResult: { ...result, structuredContent: out as unknown as Record<string, unknown> } });
    const frame = view.frame();
    await frame.click('.tok[data-a="0"]');
    await frame.waitForSelector('.panel .selected');
    expect(await frame.textContent('.panel .selected h2')).toContain(markup);
    expect(await frame.textContent('.notes')).toContain(markup);
    expect(await frame.$$('img, #root script')).toHaveLength(0);
    await view.close();
  });

  it("follows the host's theme, and prefers-color-scheme without one", async () => {
    const dark = await newPage('light');
    const hosted = await openExplain(dark, { theme: 'dark' });
    await hosted.view.frame().waitForSelector('.tok');
    expect(await hosted.view.frame().getAttribute('html', 'data-theme')).toBe('dark');
    expect(isDark(await bodyColour(hosted.view))).toBe(true);
    await hosted.view.close();
    await context.close();

    const system = await newPage('dark');
    const fallback = await openExplain(system);
    await fallback.view.frame().waitForSelector('.tok');
    expect(await fallback.view.frame().getAttribute('html', 'data-theme')).toBeNull();
    expect(isDark(await bodyColour(fallback.view))).toBe(true);
    await fallback.view.close();
    await context.close();

    const light = await newPage('dark');
    const variables = await openExplain(light, { theme: 'light', styleVariables: { '--color-background-primary': 'rgb(250, 240, 230)' } });
    await variables.view.frame().waitForSelector('.tok');
    expect(await bodyColour(variables.view)).toEqual([250, 240, 230]);
    await variables.view.close();
  });
});

describe('search view', () => {
  it('lists the hits; picking one reads its document and tells the model', async () => {
    const page = await newPage();
    const args = { workspaceId: EXAMPLE_WORKSPACE_ID, filePath: EXAMPLE_EQU, limit: 8 };
    const result = await server.call('pvf_annotation_search', args);
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as unknown as SearchOutput;
    expect(out.items.length).toBe(8);
    const view = await openView(page, { client: server.client, tool: server.tool('pvf_annotation_search'), html: await server.viewOf('pvf_annotation_search'), toolArguments: args, toolResult: result });
    const frame = view.frame();
    await frame.waitForSelector('.hit');
    expect(await frame.$$eval('.hit', (hits) => hits.map((h) => h.getAttribute('data-document-id')))).toEqual(out.items.map((i) => i.documentId));
    expect(await frame.$$eval('.hit .hit-title', (titles) => titles.map((t) => (t.textContent ?? '').trim()))).toEqual(out.items.map((i) => expect.stringContaining(i.title)));

    const picked = out.items[2] as SearchOutput['items'][number];
    await frame.click(`.hit[data-i="2"]`);
    await frame.waitForSelector(`.panel .document[data-document-id="${picked.documentId}"]`);
    const get = (await server.call('pvf_annotation_get', { documentId: picked.documentId, rulesRevision: out.rulesRevision })).structuredContent as unknown as GetOutput;
    expect(await frame.textContent('.panel .document-title')).toBe(get.document.title);
    expect(await frame.getAttribute('.hit[data-i="2"]', 'aria-pressed')).toBe('true');
    expect(view.toolCalls).toEqual([{ name: 'pvf_annotation_get', arguments: { documentId: picked.documentId, rulesRevision: out.rulesRevision }, isError: false }]);
    expect(view.modelContext).toHaveLength(1);
    expect(view.modelContext[0]?.text).toContain(picked.documentId);
    expect(view.modelContext[0]?.structuredContent).toMatchObject({ documentId: picked.documentId, rulesRevision: out.rulesRevision });

    // More hits through nextCursor, with the model's arguments.
    if (out.nextCursor) {
      await frame.click('button.more');
      await frame.waitForFunction((n) => (globalThis as unknown as PageGlobal).document.querySelectorAll('.hit').length > n, out.items.length);
      expect(view.toolCalls.at(-1)).toMatchObject({ name: 'pvf_annotation_search', arguments: { ...args, cursor: out.nextCursor } });
    }
    await view.close();
  });
});
