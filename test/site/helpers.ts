/**
 * Shared by the site tests: build a snapshot and a site with the published CLI, serve a folder over
 * loopback HTTP, and drive headless Chromium (Debian's chromium package through playwright-core).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

// Page functions run in Chromium; this file is compiled without the DOM library, so declare what they use.
declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
export const CHROMIUM = '/usr/bin/chromium';

const execFileAsync = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function pvfdoc(args: string[], cwd = ROOT): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * The builtin layer's snapshot and site, built once per test run and shared by the files that only
 * read them (each build takes most of a minute). The first file to ask builds them (a lock folder
 * decides who) and the others wait; a failed build is reported to every file that waits. Read only.
 */
export async function builtinSite(): Promise<{ snapshots: string; site: string }> {
  const root = path.join(inject('sharedDir'), 'builtin-site');
  const done = { snapshots: path.join(root, 'snapshots'), site: path.join(root, 'site') };
  const failed = `${root}.failed`;
  try {
    await mkdir(`${root}.lock`);
  } catch {
    for (let waited = 0; waited < 280_000; waited += 250) {
      if (existsSync(failed)) throw new Error(`the shared builtin site did not build: ${await readFile(failed, 'utf8')}`);
      if (existsSync(root)) return done;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the shared builtin site was not built within 280 s');
  }
  const building = `${root}.building`;
  try {
    await pvfdocOk(['build', '--layer', path.join(ROOT, 'rules/builtin'), '--out', path.join(building, 'snapshots')]);
    await pvfdocOk(['site', '--snapshot', path.join(building, 'snapshots'), '--out', path.join(building, 'site'), '--quiet']);
  } catch (error) {
    await writeFile(failed, (error as Error).message);
    throw error;
  }
  // The snapshots folder's current points inside the folder (relative), so it survives the rename.
  await rename(building, root);
  return done;
}

/** Runs a CLI command that must succeed; its stderr is part of the failure message. */
export async function pvfdocOk(args: string[]): Promise<CliResult> {
  const result = await pvfdoc(args);
  if (result.code !== 0) throw new Error(`pvfdoc ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result;
}

/**
 * Fails (never skips) when Chromium is missing: on CI, and locally with how to install it.
 */
export function requireChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const how = 'Install it with: sudo apt-get update && sudo apt-get install -y chromium (Debian/Ubuntu; .ci/run does this on CI).';
  throw new Error(
    process.env.CI
      ? `Chromium is missing at ${CHROMIUM} on CI: .ci/run should have installed it. ${how}`
      : `Chromium is missing at ${CHROMIUM}: the site's browser tests need Debian's chromium package and do not pass without it. ${how}`,
  );
}

export async function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** A static file server for a built site on 127.0.0.1 (folders serve index.html; unknown paths 404.html). */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    void (async () => {
      let pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (pathname.endsWith('/')) pathname += 'index.html';
      const file = path.resolve(root, `.${pathname}`);
      try {
        if (!file.startsWith(`${root}${path.sep}`)) throw new Error('outside');
        if ((await stat(file)).isDirectory()) {
          res.writeHead(301, { location: `${pathname}/` }).end();
          return;
        }
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        const body = await readFile(path.join(root, '404.html')).catch(() => Buffer.from('not found'));
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Console errors and uncaught page errors of every page opened through `open`. */
export class PageErrors {
  readonly errors: string[] = [];

  watch(page: Page): Page {
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(`${page.url()}: console: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.errors.push(`${page.url()}: ${error.message}`));
    page.on('requestfailed', (request) => this.errors.push(`${page.url()}: request failed: ${request.url()}`));
    return page;
  }
}

/** Runs a search through the site's search page and returns the result ids in order. */
export async function siteSearch(page: Page, baseUrl: string, params: Record<string, string>): Promise<{ ids: string[]; total: number }> {
  const query = new URLSearchParams(params).toString();
  await page.goto(`${baseUrl}search/?${query}`);
  await page.waitForSelector('#search-status[data-state="done"], #search-status[data-state="error"]', { timeout: 30_000 });
  const state = await page.getAttribute('#search-status', 'data-state');
  if (state !== 'done') throw new Error(`search ${query} ended in state ${state}: ${await page.textContent('#search-status')}`);
  const ids = await page.$$eval('#search-results > li', (items) => items.map((li) => li.getAttribute('data-document-id') ?? ''));
  const total = Number(await page.getAttribute('#search-app', 'data-total'));
  return { ids, total };
}

const TEXT_FIELDS = ['q', 'section', 'path', 'ext'] as const;
const SELECT_FIELDS: Record<string, string> = { pathKind: 'file', kind: '', type: '', v: 'all', status: 'effective' };

/**
 * Runs another search on an open search page through its form (no reload, so the bundle stays
 * loaded), and returns the result ids in order.
 */
export async function searchInPage(page: Page, params: Record<string, string>): Promise<{ ids: string[]; total: number }> {
  const form = '#search-app form';
  for (const name of TEXT_FIELDS) await page.fill(`${form} [name="${name}"]`, params[name] ?? '');
  for (const [name, fallback] of Object.entries(SELECT_FIELDS)) await page.selectOption(`${form} [name="${name}"]`, params[name] ?? fallback);
  const before = Number((await page.getAttribute('#search-app', 'data-runs')) ?? 0);
  await page.click(`${form} button[type="submit"]`);
  await page.waitForFunction((n) => Number(document.querySelector('#search-app')?.getAttribute('data-runs')) > n, before);
  const state = await page.getAttribute('#search-status', 'data-state');
  if (state !== 'done') throw new Error(`search ${JSON.stringify(params)} ended in state ${state}: ${await page.textContent('#search-status')}`);
  const ids = await page.$$eval('#search-results > li', (items) => items.map((li) => li.getAttribute('data-document-id') ?? ''));
  const total = Number(await page.getAttribute('#search-app', 'data-total'));
  return { ids, total };
}
