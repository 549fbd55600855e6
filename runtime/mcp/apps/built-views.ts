/**
 * The HTML of the MCP Apps views, as scripts/build-mcp-app-views.mjs writes it to dist/mcp-apps/.
 * Run from the sources (tests, tsx) this reads those files; in dist/pvfdoc.mjs scripts/bundle-cli.mjs
 * replaces this module with the HTML itself, so the package needs no file beside the CLI. Both export
 * exactly `builtViewHtml`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PvfdocError } from '../../errors.js';

const BUILT_DIR = new URL('../../../dist/mcp-apps/', import.meta.url);

export function builtViewHtml(file: string): string {
  const url = new URL(file, BUILT_DIR);
  try {
    return readFileSync(url, 'utf8');
  } catch (error) {
    throw new PvfdocError('IO_ERROR', `the MCP Apps view ${file} is not built (${fileURLToPath(url)} cannot be read)`, {
      hint: 'Run `node scripts/bundle-cli.mjs` (or `npm run build`) once: it builds the views into dist/mcp-apps/.',
      cause: error,
    });
  }
}
