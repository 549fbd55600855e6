/**
 * Screenshots of the reference site for docs/site.md:
 *
 *   npx tsx scripts/site-screenshots.ts              # writes docs/images/site-*.png
 *   npx tsx scripts/site-screenshots.ts --out /tmp/shots
 *
 * Builds the builtin layer with the example user layer of the site tests twice (test/fixtures/layers/
 * site-user-v1, then site-user-v2, so the changes page has something to show) into a temporary
 * snapshots folder, builds the site from it with the CLI (through tsx), serves it on loopback and takes
 * the pictures with Chromium (/usr/bin/chromium, through playwright-core) at device scale 1. Chinese
 * text needs a CJK font on the machine (Debian: fonts-noto-cjk or fonts-wqy-microhei), or it shows as
 * boxes. Prints each file with its size; a picture over 300 KB fails the run.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { loadBundle, resolveCurrentBundleDir } from '../runtime/bundle/load-bundle.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAX_BYTES = 300 * 1024;
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };

interface Shot {
  file: string;
  url: string;
  width: number;
  height: number;
  /** Scroll this element to the top first. */
  scrollTo?: string;
  dark?: boolean;
}

async function pvfdoc(args: string[]): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli/main.ts'), ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
}

async function serve(root: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    void (async () => {
      let pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (pathname.endsWith('/')) pathname += 'index.html';
      const file = path.resolve(root, `.${pathname}`);
      try {
        if (!file.startsWith(`${root}${path.sep}`) || !(await stat(file)).isFile()) throw new Error('not a file');
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
      } catch {
        res.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf('--out');
  const outDir = path.resolve(outIndex > 0 ? (process.argv[outIndex + 1] ?? '') : path.join(ROOT, 'docs/images'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-shots-'));
  try {
    const snapshots = path.join(work, 'snapshots');
    for (const version of ['v1', 'v2']) {
      await pvfdoc(['build', '--layer', path.join(ROOT, 'rules/builtin'), '--layer', path.join(ROOT, `test/fixtures/layers/site-user-${version}`), '--out', snapshots]);
      // Distinct manifest times, so the site compares v2 with v1.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const site = path.join(work, 'site');
    await pvfdoc(['site', '--snapshot', snapshots, '--out', site, '--quiet']);
    const bundle = await loadBundle(await resolveCurrentBundleDir(snapshots));
    const rarity = bundle.documents.find((d) => d.id === 'builtin.equ.rarity' && d.kind === 'field');
    if (!rarity) throw new Error('the builtin layer has no field builtin.equ.rarity');

    const shots: Shot[] = [
      { file: 'site-type-index.png', url: 'type/', width: 1280, height: 760 },
      { file: 'site-type-equ.png', url: 'type/equ/', width: 1280, height: 760 },
      { file: 'site-doc-toc.png', url: `doc/${rarity.documentId}/`, width: 1480, height: 760 },
      { file: 'site-changes-mobile.png', url: 'changes/', width: 360, height: 900, scrollTo: 'li.change-doc:has([data-part="match.extensions"])' },
    ];
    await mkdir(outDir, { recursive: true });
    const server = await serve(site);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      for (const shot of shots) {
        const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height }, deviceScaleFactor: 1, colorScheme: shot.dark ? 'dark' : 'light' });
        const page = await context.newPage();
        await page.goto(`${server.url}${shot.url}`);
        if (shot.scrollTo) await page.locator(shot.scrollTo).first().evaluate((element) => element.scrollIntoView());
        const file = path.join(outDir, shot.file);
        await page.screenshot({ path: file });
        await context.close();
        const { size } = await stat(file);
        console.log(`${path.relative(process.cwd(), file)}  ${(size / 1024).toFixed(0)} KB`);
        if (size > MAX_BYTES) throw new Error(`${shot.file} is ${size} bytes, over ${MAX_BYTES}: make the viewport smaller`);
      }
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
