/**
 * Issue 14, point 6 (links to the site), through real SDK clients: with a known site, search items, get's
 * document and explain's documents carry their page `url`, and each document returned is one
 * `resource_link`; without one, results carry no links. Over HTTP, a server that serves the site itself
 * links to its own pages, which it then serves.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPagePath } from '../../../runtime/bundle/site-paths.js';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import { createRulesHolder, type RulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { serveHttp } from '../../../runtime/mcp/serve-http.js';
import { normalizeSiteUrl } from '../../../runtime/mcp/site-links.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callOk, connect, ROOT, tempDir, type Connected } from './helpers.js';

const SITE = 'https://example.org/pvfdoc/';
const EQU = 'equipment/character/fighter/weapon/102010612.equ';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let rules: RulesHolder;
let workspace: Workspace;
let linked: Connected;
let plain: Connected;

beforeAll(async () => {
  tmp = await tempDir('mcp-site-links');
  const snapshots = path.join(tmp.dir, 'snapshots');
  await buildSnapshot(snapshots);
  rules = createRulesHolder(await loadCurrentBundle(snapshots));
  workspace = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root: path.join(ROOT, 'examples/workspace') });
  const workspaces = new Map([['main', workspace]]);
  linked = await connect({ rules, workspaces, siteUrl: SITE });
  plain = await connect({ rules, workspaces });
});

afterAll(async () => {
  await linked?.close();
  await plain?.close();
  await workspace?.close();
  await tmp?.cleanup();
});

function linksOf(result: CallToolResult): ResourceLink[] {
  return result.content.filter((c): c is ResourceLink => c.type === 'resource_link');
}

async function call(conn: Connected, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await conn.client.callTool({ name, arguments: args })) as CallToolResult;
}

describe('links to the reference site (issue 14)', () => {
  it('search: each item has its page url and one resource_link, in the order of the items', async () => {
    const args = { query: '稀有度', pvfVersion: 'all', limit: 5 };
    const { out } = await callOk(linked.client, 'pvf_annotation_search', args, PvfAnnotationSearchOutputSchema);
    expect(out.items.length).toBeGreaterThan(0);
    for (const item of out.items) expect(item.url).toBe(`${SITE}${documentPagePath(item.documentId)}`);
    const links = linksOf(await call(linked, 'pvf_annotation_search', args));
    expect(links.map((l) => l.uri)).toEqual(out.items.map((i) => i.url));
    expect(links.every((l) => l.mimeType === 'text/html' && l.name !== '' && (l.title ?? '') !== '')).toBe(true);
  });

  it('get: the document has its url and one resource_link', async () => {
    const { out: found } = await callOk(linked.client, 'pvf_annotation_search', { query: '稀有度', pvfVersion: 'all', limit: 1 }, PvfAnnotationSearchOutputSchema);
    const documentId = found.items[0]?.documentId as string;
    const { out } = await callOk(linked.client, 'pvf_annotation_get', { documentId }, PvfAnnotationGetOutputSchema);
    expect(out.document.url).toBe(`${SITE}doc/${documentId}/`);
    expect(linksOf(await call(linked, 'pvf_annotation_get', { documentId })).map((l) => [l.uri, l.title])).toEqual([[out.document.url, out.document.title]]);
  });

  it('explain: every document of the page has its url, and one resource_link each', async () => {
    const expectedRevision = (await workspace.view()).revision;
    const args = { workspaceId: 'main', expectedRevision, filePath: EQU };
    const { out } = await callOk(linked.client, 'pvf_annotation_explain', args, PvfAnnotationExplainOutputSchema);
    const ids = Object.keys(out.documents);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(out.documents[id]?.url).toBe(`${SITE}doc/${id}/`);
    const links = linksOf(await call(linked, 'pvf_annotation_explain', args));
    expect(new Set(links.map((l) => l.uri))).toEqual(new Set(ids.map((id) => `${SITE}doc/${id}/`)));
    expect(links).toHaveLength(ids.length);
  });

  it('without a site: no url and no resource_link anywhere', async () => {
    const expectedRevision = (await workspace.view()).revision;
    for (const [name, args] of [
      ['pvf_annotation_search', { query: '稀有度', pvfVersion: 'all', limit: 5 }],
      ['pvf_annotation_explain', { workspaceId: 'main', expectedRevision, filePath: EQU }],
    ] as const) {
      const result = await call(plain, name, args);
      expect(linksOf(result)).toEqual([]);
      expect(JSON.stringify(result.structuredContent)).not.toContain('"url"');
    }
  });

  it('over HTTP, a server that serves the site links to its own pages and serves them', async () => {
    const site = path.join(tmp.dir, 'site');
    const { out: found } = await callOk(plain.client, 'pvf_annotation_search', { query: '稀有度', pvfVersion: 'all', limit: 1 }, PvfAnnotationSearchOutputSchema);
    const documentId = found.items[0]?.documentId as string;
    await mkdir(path.join(site, documentPagePath(documentId)), { recursive: true });
    await writeFile(path.join(site, documentPagePath(documentId), 'index.html'), '<!doctype html><title>稀有度</title>');
    const serving = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      siteDir: site,
      log: () => undefined,
      createServer: (served) => createServer({ rules, workspaces: new Map(), log: () => undefined, ...(served.siteUrl !== null ? { siteUrl: served.siteUrl } : {}) }),
    });
    const client = new Client({ name: 'site-links', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      const result = (await client.callTool({ name: 'pvf_annotation_get', arguments: { documentId } })) as CallToolResult;
      const [link] = linksOf(result);
      expect(link?.uri).toBe(`http://127.0.0.1:${serving.port}/doc/${documentId}/`);
      const page = await fetch(link?.uri as string);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('稀有度');
    } finally {
      await client.close();
      await serving.close();
    }
  });

  it('--site-url takes http(s) base URLs only, with a trailing slash', () => {
    expect(normalizeSiteUrl('https://example.org/pvfdoc')).toBe('https://example.org/pvfdoc/');
    expect(normalizeSiteUrl('http://127.0.0.1:4321/?x=1#y')).toBe('http://127.0.0.1:4321/');
    expect(normalizeSiteUrl('file:///C:/site/')).toBeNull();
    expect(normalizeSiteUrl('example.org')).toBeNull();
  });
});
