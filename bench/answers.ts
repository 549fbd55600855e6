/**
 * What answers cost an agent (issue 14): characters (and estimated tokens) per explained annotation and
 * per explained file, and the size of tools/list, through a real SDK client talking to the server in
 * memory with the builtin rules. Sizes are deterministic, so this measures no time and needs no
 * baseline; run it on two checkouts to compare them.
 *
 *   npm run bench:answers                                   # examples/workspace, version 90US
 *   npm run bench:answers -- <folder>... [--pvf-version V] [--json]
 *
 * A page costs its text content plus its structuredContent as JSON (what a client may pass to a model).
 * Per file: the first page with default arguments (chars ÷ its annotations), and every page of the file
 * (chars ÷ the file's canonical text). Tokens are estimated as one per CJK character plus one per four
 * other characters.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileLayers } from '../build/compile-layers.js';
import { openBuiltBundle } from '../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../runtime/bundle/rules-holder.js';
import { createExplainCache } from '../runtime/explain/explain-file.js';
import { createServer } from '../runtime/mcp/create-server.js';
import { openDirectoryWorkspace } from '../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../runtime/workspace/workspace.js';
import { median, table } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface FileSize {
  path: string;
  textChars: number;
  annotations: number;
  firstPageAnnotations: number;
  firstPageChars: number;
  allChars: number;
  pages: number;
}

/** One per CJK character (and other wide scripts), one per four other characters. */
function estimateTokens(text: string): number {
  let wide = 0;
  let narrow = 0;
  for (const ch of text) {
    if ((ch.codePointAt(0) as number) >= 0x2e80) wide++;
    else narrow++;
  }
  return wide + Math.ceil(narrow / 4);
}

function sizeOf(result: CallToolResult): { chars: number; tokens: number } {
  const parts = [JSON.stringify(result.structuredContent ?? null), ...result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c)))];
  return { chars: parts.reduce((n, p) => n + p.length, 0), tokens: parts.reduce((n, p) => n + estimateTokens(p), 0) };
}

async function scriptFiles(workspace: Workspace, dir = ''): Promise<string[]> {
  const view = await workspace.view();
  const out: string[] = [];
  for (const entry of view.listDirectory(dir)) {
    if (entry.kind === 'directory') out.push(...(await scriptFiles(workspace, entry.path)));
    // Only token scripts: a README is text explain accepts, but no rule ever describes it.
    else if (view.readText(entry.path).isScript && !/\.(md|txt)$/i.test(entry.path)) out.push(entry.path);
  }
  return out;
}

async function measureFolder(client: Client, workspace: Workspace): Promise<FileSize[]> {
  const files: FileSize[] = [];
  for (const filePath of await scriptFiles(workspace)) {
    const view = await workspace.view();
    const text = view.readText(filePath).text;
    const args = { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath };
    let result = (await client.callTool({ name: 'pvf_annotation_explain', arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${filePath}: ${JSON.stringify(result.content)}`);
    const first = result.structuredContent as { annotations: unknown[]; nextCursor: string | null };
    const firstPage = sizeOf(result);
    let allChars = firstPage.chars;
    let annotations = first.annotations.length;
    let pages = 1;
    for (let cursor = first.nextCursor; cursor !== null; ) {
      result = (await client.callTool({ name: 'pvf_annotation_explain', arguments: { ...args, cursor } })) as CallToolResult;
      const page = result.structuredContent as { annotations: unknown[]; nextCursor: string | null };
      allChars += sizeOf(result).chars;
      annotations += page.annotations.length;
      pages++;
      cursor = page.nextCursor;
    }
    files.push({ path: filePath, textChars: text.length, annotations, firstPageAnnotations: first.annotations.length, firstPageChars: firstPage.chars, allChars, pages });
  }
  return files;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { 'pvf-version': { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true });
  const folders = positionals.length > 0 ? positionals.map((p) => path.resolve(p)) : [path.join(ROOT, 'examples/workspace')];
  const pvfVersion = values['pvf-version'] ?? '90US';
  const compiled = await compileLayers([path.join(ROOT, 'rules/builtin')]);
  if (!compiled.ok) throw new Error('rules/builtin does not compile');
  const rules = createRulesHolder(openBuiltBundle(compiled.bundle.files));
  const report: Record<string, unknown>[] = [];
  const rows: string[][] = [];
  let toolsListChars = 0;
  let toolsListTokens = 0;
  for (const folder of folders) {
    const workspace = await openDirectoryWorkspace({ workspaceId: 'w', name: path.basename(folder), root: folder, pvfVersion });
    const created = createServer({ rules, workspaces: new Map([['w', workspace]]), log: () => undefined, explainCache: createExplainCache() });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'bench-answers', version: '1.0.0' });
    await created.server.connect(serverSide);
    await client.connect(clientSide);
    const tools = JSON.stringify(await client.listTools());
    toolsListChars = tools.length;
    toolsListTokens = estimateTokens(tools);
    const files = await measureFolder(client, workspace);
    await client.close();
    await created.close();
    await workspace.close();
    const withAnnotations = files.filter((f) => f.firstPageAnnotations > 0);
    const perAnnotation = withAnnotations.map((f) => f.firstPageChars / f.firstPageAnnotations);
    const wholeRatio = files.reduce((n, f) => n + f.allChars, 0) / Math.max(1, files.reduce((n, f) => n + f.textChars, 0));
    const worst = [...files].sort((a, b) => b.allChars / b.textChars - a.allChars / a.textChars)[0];
    rows.push([
      path.relative(process.cwd(), folder) || '.',
      String(files.length),
      String(files.reduce((n, f) => n + f.annotations, 0)),
      median(perAnnotation).toFixed(0),
      (withAnnotations.reduce((n, f) => n + f.firstPageChars, 0) / Math.max(1, withAnnotations.reduce((n, f) => n + f.firstPageAnnotations, 0))).toFixed(0),
      `${wholeRatio.toFixed(1)}×`,
      worst ? `${(worst.allChars / worst.textChars).toFixed(1)}× ${worst.path}` : '',
    ]);
    report.push({ folder, pvfVersion, files });
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ toolsListChars, toolsListTokens, folders: report }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`# pvfdoc answer sizes\n\ndate: ${new Date().toISOString()}; version context ${pvfVersion}; rules: rules/builtin\n`);
  process.stdout.write(`tools/list: ${toolsListChars} characters (about ${toolsListTokens} tokens)\n\n`);
  process.stdout.write(
    `${table(['folder', 'files', 'annotations', 'first page: chars/annotation (median)', 'first pages: chars/annotation (all)', 'every page ÷ file text', 'most costly file'], rows)}\n`,
  );
  for (const entry of report) {
    const files = entry['files'] as FileSize[];
    if (files.length > 12) continue;
    process.stdout.write(`\n${path.relative(process.cwd(), entry['folder'] as string) || '.'}:\n`);
    process.stdout.write(
      `${table(
        ['file', 'text chars', 'annotations', 'pages', 'first page chars/annotation', 'every page ÷ text'],
        files.map((f) => [f.path, String(f.textChars), String(f.annotations), String(f.pages), f.firstPageAnnotations > 0 ? (f.firstPageChars / f.firstPageAnnotations).toFixed(0) : '-', `${(f.allChars / f.textChars).toFixed(1)}×`]),
      )}\n`,
    );
  }
}

await main();
