// Bundles cli/main.ts and everything it loads into the single file dist/pvfdoc.mjs.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';

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
  logLevel: 'warning',
});
await chmod('dist/pvfdoc.mjs', 0o755);
