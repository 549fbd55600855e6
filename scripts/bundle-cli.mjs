// Bundles cli/main.ts and everything it loads into the single file dist/pvfdoc.mjs. The MCP Apps views
// are built first (scripts/build-mcp-app-views.mjs, also written to dist/mcp-apps/ for runs from the
// sources) and their HTML goes into the bundle, so the package ships no file for them.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import { buildMcpAppViews } from './build-mcp-app-views.mjs';

const views = await buildMcpAppViews();

/** runtime/mcp/apps/built-views.ts reads dist/mcp-apps/ when run from the sources; the bundle holds the HTML instead. */
const inlineViews = {
  name: 'inline-mcp-app-views',
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]mcp[\\/]apps[\\/]built-views\.ts$/ }, () => ({
      loader: 'js',
      contents: `const VIEWS = ${JSON.stringify(views)};
export function builtViewHtml(file) {
  if (!Object.hasOwn(VIEWS, file)) throw new Error('pvfdoc was bundled without the MCP Apps view ' + file);
  return VIEWS[file];
}
`,
    }));
  },
};

await build({
  entryPoints: ['cli/main.ts'],
  outfile: 'dist/pvfdoc.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __pvfdocCreateRequire } from 'node:module'; const require = __pvfdocCreateRequire(import.meta.url);" },
  plugins: [inlineViews],
  logLevel: 'warning',
});
await chmod('dist/pvfdoc.mjs', 0o755);
