/**
 * Screenshots of the MCP Apps views for docs/mcp.md:
 *
 *   node scripts/bundle-cli.mjs && npx tsx scripts/mcp-app-screenshots.ts    # writes docs/images/mcp-app-*.png
 *   npx tsx scripts/mcp-app-screenshots.ts --out /tmp/shots
 *
 * Runs the real server from the sources on examples/workspace (builtin rules), shows the views in the
 * test host of test/runtime/mcp/apps-host.ts (the package's AppBridge, the view in a sandboxed iframe)
 * in Chromium (/usr/bin/chromium through playwright-core) at device scale 1, picks a token or a hit,
 * and photographs the view. The views come from dist/mcp-apps/, so build first. Chinese text needs a
 * CJK font on the machine (Debian: fonts-noto-cjk or fonts-wqy-microhei). Prints each file with its
 * size; a picture over 300 KB fails the run.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { ExplainOutput } from '../runtime/explain/explain-schema.js';
import { connectExampleServer, EXAMPLE_EQU, EXAMPLE_WORKSPACE_ID, openView, type ExampleServer, type OpenViewOptions } from '../test/runtime/mcp/apps-host.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAX_BYTES = 300 * 1024;

interface Shot {
  file: string;
  tool: 'pvf_annotation_explain' | 'pvf_annotation_search';
  args: Record<string, unknown>;
  theme: 'light' | 'dark';
  /** What to click once the view shows the result. */
  pick: (out: Record<string, unknown>) => { selector: string; waitFor: string };
}

function rarityToken(out: Record<string, unknown>): { selector: string; waitFor: string } {
  const annotations = (out as unknown as ExplainOutput).annotations;
  const index = annotations.findIndex((a) => a.section === 'rarity' && a.type === 'enum');
  if (index < 0) throw new Error('the example .equ has no [rarity] enum on the first page');
  return { selector: `.tok[data-a="${index}"]`, waitFor: '.panel .document' };
}

async function take(browser: Browser, server: ExampleServer, shot: Shot, outDir: string): Promise<void> {
  // Taller than any view, so the whole iframe is on screen (an element screenshot that scrolls can catch the iframe unpainted).
  const context = await browser.newContext({ viewport: { width: 1040, height: 1000 }, deviceScaleFactor: 1, colorScheme: shot.theme });
  try {
    const page = await context.newPage();
    const result = await server.call(shot.tool, shot.args);
    if (result.isError) throw new Error(`${shot.tool} failed: ${JSON.stringify(result.content)}`);
    const options: OpenViewOptions = { client: server.client, tool: server.tool(shot.tool), html: await server.viewOf(shot.tool), toolArguments: shot.args, toolResult: result, theme: shot.theme };
    const view = await openView(page, options);
    const frame = view.frame();
    const pick = shot.pick(result.structuredContent ?? {});
    await frame.waitForSelector(pick.selector);
    await frame.click(pick.selector);
    await frame.waitForSelector(pick.waitFor);
    // Let the size notification reach the host, the iframe grow to the view's height and repaint.
    await page.waitForTimeout(1000);
    const box = await page.locator('#view').boundingBox();
    if (!box) throw new Error('the view iframe has no box');
    const file = path.join(outDir, shot.file);
    await page.screenshot({ path: file, clip: { x: 0, y: 0, width: box.width, height: Math.min(box.height, 1000) } });
    const { size } = await stat(file);
    console.log(`${path.relative(ROOT, file)}  ${(size / 1024).toFixed(0)} KB`);
    if (size > MAX_BYTES) throw new Error(`${shot.file} is ${size} bytes, over ${MAX_BYTES}`);
    await view.close();
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf('--out');
  const outDir = path.resolve(outIndex > 0 ? (process.argv[outIndex + 1] ?? '') : path.join(ROOT, 'docs/images'));
  await mkdir(outDir, { recursive: true });
  const server = await connectExampleServer();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const explain = { workspaceId: EXAMPLE_WORKSPACE_ID, expectedRevision: server.revision, filePath: EXAMPLE_EQU };
    const shots: Shot[] = [
      { file: 'mcp-app-explain-light.png', tool: 'pvf_annotation_explain', args: explain, theme: 'light', pick: rarityToken },
      { file: 'mcp-app-explain-dark.png', tool: 'pvf_annotation_explain', args: explain, theme: 'dark', pick: rarityToken },
      {
        file: 'mcp-app-search.png',
        tool: 'pvf_annotation_search',
        args: { workspaceId: EXAMPLE_WORKSPACE_ID, filePath: EXAMPLE_EQU, query: '稀有度', limit: 6 },
        theme: 'light',
        pick: () => ({ selector: '.hit[data-i="0"]', waitFor: '.panel .document' }),
      },
    ];
    for (const shot of shots) await take(browser, server, shot, outDir);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
