/**
 * Shared helpers of the search/get/cursor tests: compile fixture layers into an in-memory bundle, call
 * the tools and validate every output against its published schema, and catch PvfdocErrors.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { getDocument } from '../../../runtime/get/get-document.js';
import { GetOutputSchema, type GetInput, type GetOutput } from '../../../runtime/get/get-schema.js';
import { searchDocuments, type SearchOptions } from '../../../runtime/search/search-documents.js';
import { SearchInputSchema, SearchOutputSchema, type SearchInput, type SearchItem, type SearchOutput } from '../../../runtime/search/search-schema.js';

export const FIXTURE_LAYERS = fileURLToPath(new URL('../../fixtures/layers/', import.meta.url));

/** Compiles layer folders (absolute, or names under test/fixtures/layers) and opens the bundle. */
export async function compileBundle(...layers: string[]): Promise<Bundle> {
  const dirs = layers.map((l) => (path.isAbsolute(l) ? l : path.join(FIXTURE_LAYERS, l)));
  const result = await compileLayers(dirs);
  if (!result.ok) throw new Error(`fixture layers do not compile:\n${JSON.stringify(result.problems, null, 2)}`);
  expect(result.ok).toBe(true);
  return openBuiltBundle(result.bundle.files);
}

/** The main fixture: search-base overridden/disabled in part by search-user. */
export function fixtureBundle(): Promise<Bundle> {
  return compileBundle('search-base', 'search-user');
}

/** Writes a layer folder into a fresh temp dir; returns the dir and a cleanup function. */
export async function writeTempLayer(files: Record<string, unknown>): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-search-'));
  const dir = path.join(root, 'layer');
  await mkdir(dir);
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2), 'utf8');
  }
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** searchDocuments with its input and output validated by the published schemas. */
export function search(bundle: Bundle, input: SearchInput, options?: SearchOptions): SearchOutput {
  SearchInputSchema.parse(input);
  const output = searchDocuments(bundle, input, options);
  return SearchOutputSchema.parse(output);
}

/** getDocument with output validated by the published schema. */
export function get(bundle: Bundle, input: GetInput): GetOutput {
  return GetOutputSchema.parse(getDocument(bundle, input));
}

/** Every item of a search, following nextCursor to the end. */
export function searchAll(bundle: Bundle, input: SearchInput, options?: SearchOptions): { items: SearchItem[]; totalMatches: number; pages: number } {
  const items: SearchItem[] = [];
  let cursor: string | undefined;
  let totalMatches = -1;
  let pages = 0;
  for (;;) {
    const out = search(bundle, cursor === undefined ? input : { ...input, cursor }, options);
    if (totalMatches >= 0) expect(out.totalMatches).toBe(totalMatches);
    totalMatches = out.totalMatches;
    items.push(...out.items);
    pages += 1;
    if (out.nextCursor === null) break;
    cursor = out.nextCursor;
    if (pages > 10_000) throw new Error('paging does not end');
  }
  return { items, totalMatches, pages };
}

/** The PvfdocError that `fn` throws; fails the test when it returns or throws something else. */
export function errorOf(fn: () => unknown): PvfdocError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PvfdocError) return error;
    throw error;
  }
  throw new Error('expected a PvfdocError, but the call returned');
}

/**
 * Rule id (or field id for fields) of each item, in order: easy to read in assertions. A field hit that
 * carries its implicit rule (issue 14: one hit per shared field) names both, the rule first.
 */
export function names(items: readonly SearchItem[]): string[] {
  return items.flatMap((i) => (i.kind === 'rule' ? [i.ruleId ?? ''] : [...(i.implicitRuleId ? [i.implicitRuleId] : []), `field ${i.fieldId ?? ''}`]));
}

/** documentId of each item, and of the implicit rule a field hit carries (after it): every document found. */
export function coveredIds(items: readonly SearchItem[]): string[] {
  return items.flatMap((i) => [i.documentId, ...(i.implicitRuleDocumentId ? [i.implicitRuleDocumentId] : [])]);
}

/** The one item of that rule id (or `field <id>`), failing when there is not exactly one. */
export function itemNamed(items: readonly SearchItem[], name: string): SearchItem {
  const hits = items.filter((item) => names([item]).includes(name));
  expect(hits, `items named ${name}`).toHaveLength(1);
  return hits[0] as SearchItem;
}

/** documentId of the document with this kind/id in a layer (first one when `layer` is omitted). */
export function documentIdOf(bundle: Bundle, kind: 'rule' | 'field', id: string, layer?: string): string {
  const doc = bundle.documents.find((d) => d.kind === kind && d.id === id && (layer === undefined || d.layer === layer));
  if (!doc) throw new Error(`no ${kind} ${id}${layer ? ` in ${layer}` : ''}`);
  return doc.documentId;
}
