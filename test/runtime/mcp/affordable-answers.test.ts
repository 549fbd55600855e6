/**
 * Issue 14 (answers an agent can afford), through a real SDK Client on examples/workspace with the
 * builtin rules: titles name the field, each thing is said once per page (documents, summaries,
 * pathContext on the first page), a readable text line per annotation, and the page budget.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { EXPLAIN_PAGE_BUDGET_BYTES, MAX_EXPLAIN_SUMMARY, type ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callOk, connect, ROOT, tempDir, type Connected } from './helpers.js';

const EQU = 'equipment/character/fighter/weapon/102010612.equ';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let workspace: Workspace;
let conn: Connected;

beforeAll(async () => {
  tmp = await tempDir('mcp-affordable');
  const snapshots = path.join(tmp.dir, 'snapshots');
  await buildSnapshot(snapshots);
  workspace = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root: path.join(ROOT, 'examples/workspace') });
  conn = await connect({ rules: createRulesHolder(await loadCurrentBundle(snapshots)), workspaces: new Map([['main', workspace]]) });
});

afterAll(async () => {
  await conn?.close();
  await workspace?.close();
  await tmp?.cleanup();
});

async function explain(args: Record<string, unknown> = {}): Promise<{ out: ExplainOutput; text: string }> {
  const expectedRevision = (await workspace.view()).revision;
  return callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision, filePath: EQU, ...args }, PvfAnnotationExplainOutputSchema);
}

async function explainPages(args: Record<string, unknown> = {}): Promise<{ out: ExplainOutput; text: string }[]> {
  const pages = [await explain(args)];
  for (let next = pages[0]?.out.nextCursor; next; next = pages.at(-1)?.out.nextCursor) pages.push(await explain({ ...args, cursor: next }));
  return pages;
}

describe('explain answers an agent can afford (issue 14)', () => {
  it('titles name the field; the enum label is only valueLabel', async () => {
    const { out } = await explain({ section: 'rarity' });
    const rarity = out.annotations.find((a) => a.tokenIndex === 0);
    expect(rarity?.title).toBe('稀有度');
    expect(rarity?.valueLabel).toBeDefined();
    expect(rarity?.valueLabel).not.toBe('稀有度');
  });

  it('says each thing once per page: documents keyed by documentId, one-line summaries, pathContext on the first page', async () => {
    const pages = await explainPages();
    expect(pages.length).toBeGreaterThan(1);
    let ownSummaries = 0;
    let annotations = 0;
    for (const [i, { out }] of pages.entries()) {
      expect(out.schemaVersion).toBe(3);
      // What the annotations cite, and on the first page the path notes: each document once.
      const cited = new Set([...out.annotations.flatMap((a) => a.documentIds), ...out.pathContext.map((p) => p.documentId)]);
      expect(new Set(Object.keys(out.documents))).toEqual(cited);
      for (const a of out.annotations) {
        annotations++;
        // A summary travels with the annotation only when its first document does not already say it.
        const first = a.documentIds[0];
        if (first === undefined) expect(a.summary).toBeDefined();
        else if (a.summary !== undefined) {
          expect(a.summary).not.toBe(out.documents[first]?.summary);
          ownSummaries++;
        }
        expect((a.summary ?? '').length).toBeLessThanOrEqual(MAX_EXPLAIN_SUMMARY);
        expect(a.summary ?? '').not.toMatch(/\n/);
        // One rule: its block would only repeat the annotation; blocks list the rules that merged.
        if (a.blocks !== undefined) expect(a.blocks.length).toBeGreaterThan(1);
        if (a.ruleIds.length > 1) expect(a.blocks?.map((b) => b.ruleId)).toEqual(a.ruleIds);
        expect(a.origin).toBeUndefined();
      }
      for (const [id, doc] of Object.entries(out.documents)) {
        expect(out.annotations.some((a) => a.documentIds.includes(id)) || out.pathContext.some((p) => p.documentId === id)).toBe(true);
        expect(doc.summary.length).toBeLessThanOrEqual(MAX_EXPLAIN_SUMMARY);
        expect(doc).not.toHaveProperty('content');
        expect(doc).not.toHaveProperty('sources');
      }
      if (i === 0) {
        expect(out.pathContext.length).toBeGreaterThan(0);
        expect(out.pathContextOmitted).toBeUndefined();
      } else {
        expect(out.pathContext).toEqual([]);
        expect(out.pathContextOmitted).toBe(true);
      }
    }
    // Most rule annotations say what their document says: their summary is not repeated.
    expect(ownSummaries).toBeLessThan(annotations / 4);
  });

  it('with fullText, documents also carry the whole content and sources (once per page)', async () => {
    const { out } = await explain({ fullText: true, section: 'rarity' });
    const docs = Object.values(out.documents);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(doc).toMatchObject({ summary: expect.any(String), content: expect.any(String), sources: expect.any(Array) });
    expect(docs.some((doc) => (doc.content?.length ?? 0) > doc.summary.length)).toBe(true);
    // The page composition depends on fullText, so a cursor of one cannot continue the other.
    const first = await explain({ limit: 1 });
    const refused = await conn.client.callTool({ name: 'pvf_annotation_explain', arguments: { workspaceId: 'main', expectedRevision: first.out.revision, filePath: EQU, limit: 1, fullText: true, cursor: first.out.nextCursor } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('INVALID_CURSOR');
  });

  it('the text is one compact line per annotation: position, section, field title, value = label', async () => {
    const { out, text } = await explain({ section: 'rarity' });
    const lines = text.split('\n');
    expect(lines).toHaveLength(1 + out.annotations.length + out.warnings.length + out.pathContext.length);
    const rarity = out.annotations.find((a) => a.tokenIndex === 0);
    expect(lines).toContain(`${rarity?.start.line}:${rarity?.start.column} [rarity]#0.0 稀有度 ${rarity?.value} = ${rarity?.valueLabel}`);
  });

  it('a page stops at the byte budget, with truncated and nextCursor', async () => {
    const { out } = await explain({ limit: 100 });
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(EXPLAIN_PAGE_BUDGET_BYTES);
    expect(out.truncated).toBe(true);
    expect(out.nextCursor).not.toBeNull();
    // Every annotation once, in order, across budget-cut pages.
    const all = (await explainPages({ limit: 100 })).flatMap((p) => p.out.annotations);
    const small = (await explainPages({ limit: 10 })).flatMap((p) => p.out.annotations);
    expect(all).toEqual(small);
  });
});
