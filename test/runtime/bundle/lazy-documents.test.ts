/**
 * loadBundle from disk reads documents.json on first use and its raw definitions on first `raw`
 * (load-bundle.ts): the documents equal those of an in-memory open, and a damaged file whose hash still
 * matches (only a hand-made bundle can be one) fails with INVALID_BUNDLE naming documents.json at the
 * step that reads it, every time it is asked.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers, type BuiltBundle } from '../../../build/compile-layers.js';
import { writeBundle } from '../../../build/write-bundle.js';
import { sha256Hex } from '../../../runtime/bundle/canonical-json.js';
import { loadBundle, openBuiltBundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { thrownBy } from '../../support/caught.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
let tmp: string;
let built: BuiltBundle;
let bundleDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'pvfdoc-lazy-documents-'));
  const result = await compileLayers([path.join(ROOT, 'test/fixtures/layers/basic/builtin')]);
  if (!result.ok) throw new Error('fixture layer does not compile');
  built = result.bundle;
  bundleDir = await writeBundle(path.join(tmp, 'snapshots'), built, { setCurrent: false });
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A copy of the bundle with documents.json's text edited and its hash in the manifest updated. */
async function withDocumentsText(name: string, edit: (text: string) => string): Promise<string> {
  const dir = path.join(tmp, name);
  await cp(bundleDir, dir, { recursive: true });
  const file = path.join(dir, 'documents.json');
  const before = await readFile(file, 'utf8');
  const text = edit(before);
  expect(text).not.toBe(before);
  await writeFile(file, text);
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files: { name: string; sha256: string; bytes: number }[] };
  for (const f of manifest.files) if (f.name === 'documents.json') Object.assign(f, { sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}


function expectInvalidDocuments(error: unknown, message: RegExp): void {
  expect(error).toBeInstanceOf(PvfdocError);
  expect((error as PvfdocError).code).toBe('INVALID_BUNDLE');
  expect((error as PvfdocError).data?.file).toBe('documents.json');
  expect((error as PvfdocError).message).toMatch(message);
}

async function getThroughMcp(dir: string, documentId: string): Promise<CallToolResult> {
  const bundle = await loadBundle(dir);
  const created = createServer({ rules: createRulesHolder(bundle), workspaces: new Map(), log: () => undefined });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'lazy-documents-test', version: '1.0.0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.callTool({ name: 'pvf_annotation_get', arguments: { documentId } })) as CallToolResult;
  } finally {
    await client.close();
    await created.close();
  }
}

describe('documents read from disk on first use', () => {
  it('equal those of the same bundle opened in memory, raw definitions included and read lazily', async () => {
    const loaded = await loadBundle(bundleDir);
    const inMemory = openBuiltBundle(built.files);
    const first = loaded.documents[0];
    expect(first).toBeDefined();
    // From disk, raw is the lazy accessor; in memory it is a plain value.
    expect(Object.getOwnPropertyDescriptor(first, 'raw')?.get).toBeTypeOf('function');
    expect(Object.getOwnPropertyDescriptor(inMemory.documents[0], 'raw')?.get).toBeUndefined();
    expect(loaded.documents).toEqual(inMemory.documents);
    for (const [i, doc] of loaded.documents.entries()) expect(doc.raw, doc.id).toEqual(inMemory.documents[i]?.raw);
    expect(Object.keys(first ?? {})).toEqual(Object.keys(inMemory.documents[0] ?? {}));
    expect(loaded.ruleOrder).toEqual(inMemory.ruleOrder);
    expect(loaded.positionById.get(first?.documentId ?? '')).toBe(0);
    expect(loaded.documentsById.get(first?.documentId ?? '')).toBe(first);
  });

  it('a raw definition that is not valid JSON: load and search work, the first raw (and get) fail with INVALID_BUNDLE', async () => {
    const dir = await withDocumentsText('bad-raw-json', (text) => text.replace(',"raw":{', ',"raw":{"x":01,'));
    const bundle = await loadBundle(dir);
    expect(bundle.documents.length).toBe(openBuiltBundle(built.files).documents.length);
    const first = thrownBy(() => bundle.documents[0]?.raw);
    expectInvalidDocuments(first, /raw definition/);
    // Every raw fails the same way, not only the damaged one.
    expect(thrownBy(() => bundle.documents.at(-1)?.raw)).toBe(first);
    const answer = await getThroughMcp(dir, bundle.documents[0]?.documentId ?? '');
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain('INVALID_BUNDLE');
  });

  it('a raw definition holding a number JSON cannot keep (1e999) fails on first raw', async () => {
    const dir = await withDocumentsText('raw-infinity', (text) => text.replace(',"raw":{', ',"raw":{"x":1e999,'));
    const bundle = await loadBundle(dir);
    expectInvalidDocuments(thrownBy(() => bundle.documents[1]?.raw), /not a JSON value/);
  });

  it('a document off its schema: load succeeds, the first use of the documents fails with the schema error, every time', async () => {
    const dir = await withDocumentsText('bad-kind', (text) => text.replace('"kind":"rule"', '"kind":"bogus"'));
    const bundle = await loadBundle(dir);
    expect(bundle.searchIndex.documentCount).toBeGreaterThan(0);
    const first = thrownBy(() => bundle.documents);
    expectInvalidDocuments(first, /does not match bundle schema/);
    expect(thrownBy(() => bundle.documentsById)).toBe(first);
    expect(thrownBy(() => bundle.searchTexts)).toBe(first);
  });

  it('documents.json that is not JSON outside the raw definitions fails on first use as not valid JSON', async () => {
    const dir = await withDocumentsText('bad-json', (text) => text.replace('"documents":[', '"documents":[,'));
    const bundle = await loadBundle(dir);
    expectInvalidDocuments(thrownBy(() => bundle.ruleOrder), /not valid JSON/);
  });

  it('documentIds that only look right in the bytes are refused when the documents are read', async () => {
    // The first document's id moved into its raw definition (where the load-time look-up finds it) and
    // replaced by another: the index order is then checked again on first use.
    const loaded = await loadBundle(bundleDir);
    const id = loaded.documents[0]?.documentId ?? '';
    const dir = await withDocumentsText('ids-in-raw', (text) =>
      text.replace(`"documentId":"${id}"`, '"documentId":"0000000000000000"').replace(',"raw":{', `,"raw":{"documentId":"${id}",`),
    );
    const bundle = await loadBundle(dir).catch((e: unknown) => e);
    // Either refused at load (the look-up saw a mismatch) or on first use; never served.
    const error = bundle instanceof Error ? bundle : thrownBy(() => (bundle as Awaited<ReturnType<typeof loadBundle>>).documents);
    expect(error).toMatchObject({ code: 'INVALID_BUNDLE', data: { file: 'search-index.json' } });
  });
});
