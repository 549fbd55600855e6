// Builds the MCP Apps views (runtime/mcp/apps/views/*-view.ts, docs/mcp.md "MCP Apps views") into
// self-contained HTML in dist/mcp-apps/: one inline script (the esbuild bundle, the ext-apps App class
// included) and one inline style; the document loads nothing from anywhere. scripts/bundle-cli.mjs
// calls buildMcpAppViews() and inlines the result into dist/pvfdoc.mjs; tests running the TypeScript
// sources read the files (runtime/mcp/apps/built-views.ts).
//   node scripts/build-mcp-app-views.mjs     # only the views
import { build, transform } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VIEWS_DIR = path.join(ROOT, 'runtime/mcp/apps/views');
export const MCP_APP_VIEWS_DIR = path.join(ROOT, 'dist/mcp-apps');

/** One entry per `ui://` resource of runtime/mcp/apps/view-resources.ts (same file names). */
export const MCP_APP_VIEWS = [
  { file: 'explain-view.html', entry: 'explain-view.ts', title: 'pvfdoc · 文件解释 / File explanation' },
  { file: 'search-view.html', entry: 'search-view.ts', title: 'pvfdoc · 搜索结果 / Search results' },
];

/**
 * The document's own policy, on top of whatever the host sets: no fetch, XHR, WebSocket, image, font,
 * frame or external script or style. Inline code stays allowed because hosts may add their own inline
 * bridge script to the document.
 */
export const MCP_APP_VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * zod's `z.locales` (error messages in 40-odd languages, 260 KB) comes along with the App class but is
 * never used: zod sets its English messages itself (classic/schemas.js imports locales/en.js). The
 * namespace keeps only `en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!args.importer.split(path.sep).includes('zod')) return undefined;
      return { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Text that would end the inline element early or open an HTML comment inside it. */
function checkInline(kind, text, closing) {
  const bad = [closing, '<!--'].find((s) => text.toLowerCase().includes(s));
  if (bad) throw new Error(`build-mcp-app-views: the inline ${kind} contains "${bad}", which would break the HTML document`);
}

async function bundleScript(entry) {
  const result = await build({
    entryPoints: [path.join(VIEWS_DIR, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    plugins: [zodEnglishOnly],
    logLevel: 'warning',
  });
  const js = result.outputFiles[0].text.trimEnd();
  checkInline('script', js, '</script');
  return js;
}

function page(title, css, js) {
  return [
    '<!doctype html>',
    '<html lang="zh-CN">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${MCP_APP_VIEW_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script>${js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Builds every view, writes dist/mcp-apps/<file>, and returns `{ <file>: html }`. */
export async function buildMcpAppViews() {
  const styles = await transform(await readFile(path.join(VIEWS_DIR, 'view.css'), 'utf8'), { loader: 'css', minify: true, charset: 'utf8', legalComments: 'none' });
  const css = styles.code.trimEnd();
  checkInline('style', css, '</style');
  await mkdir(MCP_APP_VIEWS_DIR, { recursive: true });
  const built = {};
  for (const view of MCP_APP_VIEWS) {
    const html = page(view.title, css, await bundleScript(view.entry));
    await writeFile(path.join(MCP_APP_VIEWS_DIR, view.file), html);
    built[view.file] = html;
  }
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, html] of Object.entries(await buildMcpAppViews())) console.log(`dist/mcp-apps/${file}  ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB`);
}
