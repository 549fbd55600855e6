/**
 * Search and get with pvfdoc's format extensions (layer test/fixtures/layers/format-extensions):
 * trust on every hit and the `trust` filter, sentinel labels and column titles in the searched text,
 * and trust, sources and the new target/annotation keys in get's output.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { getDocument } from '../../../runtime/get/get-document.js';
import { GetOutputSchema } from '../../../runtime/get/get-schema.js';
import { searchDocuments } from '../../../runtime/search/search-documents.js';
import { SearchInputSchema, SearchOutputSchema, type SearchInput } from '../../../runtime/search/search-schema.js';

const LAYER = fileURLToPath(new URL('../../fixtures/layers/format-extensions/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([LAYER]);
});

function search(input: SearchInput) {
  const output = searchDocuments(bundle, SearchInputSchema.parse({ pvfVersion: 'all', limit: 100, ...input }));
  SearchOutputSchema.parse(output);
  return output;
}

const ids = (input: SearchInput) =>
  search(input)
    .items.flatMap((i) => [`${i.kind}:${i.ruleId ?? i.fieldId}`, ...(i.implicitRuleId ? [`rule:${i.implicitRuleId}`] : [])])
    .sort();

describe('search', () => {
  it('gives every hit its trust (null when the definition states none)', () => {
    const byId = new Map(search({ kinds: ['rule'] }).items.map((i) => [i.ruleId, i.trust]));
    expect(Object.fromEntries(byId)).toEqual({
      'field:skl.level': 'confirmed',
      'qst.kind': null,
      'qst.list': 'likely',
      'qst.npc': 'unverified',
      'skl.condition tag': null,
      'skl.condition value': 'confirmed',
      'skl.plain value': 'likely',
    });
  });

  it('filters by trust (any of the levels); definitions without trust match no level', () => {
    expect(ids({ trust: ['confirmed'] })).toEqual(['field:skl.level', 'rule:field:skl.level', 'rule:skl.condition value']);
    expect(ids({ trust: ['likely', 'unverified'] })).toEqual(['rule:qst.list', 'rule:qst.npc', 'rule:skl.plain value']);
    expect(ids({ trust: ['unverified'], query: 'npc' })).toEqual(['rule:qst.npc']);
    expect(search({ trust: ['likely'] }).items[0]?.matchReasons).toContain('trust');
  });

  it('keeps the trust filter in the cursor binding', () => {
    const first = search({ trust: ['likely', 'unverified'], limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    expect(() => search({ trust: ['confirmed'], limit: 1, cursor: first.nextCursor as string })).toThrow();
  });

  it('finds column titles and sentinel labels', () => {
    expect(ids({ query: '发布任务的 NPC' })).toEqual(['rule:qst.list']);
    expect(ids({ query: '任务 编号' })).toEqual(['rule:qst.list']);
    expect(ids({ query: '无 NPC' })).toEqual(['rule:qst.npc']);
    expect(ids({ query: '不限' })).toEqual(['rule:qst.kind']);
  });
});

describe('get', () => {
  const docId = (id: string) => bundle.documents.find((d) => d.kind === 'rule' && d.id === id)?.documentId as string;

  it('shows trust and sources on the document', () => {
    const out = GetOutputSchema.parse(getDocument(bundle, { documentId: docId('skl.condition value') }));
    expect(out.document).toMatchObject({ trust: 'confirmed', sources: ['OFF/skill.skl'] });
    const implicit = getDocument(bundle, { documentId: docId('field:skl.level') });
    expect(implicit.document).toMatchObject({ trust: 'confirmed', sources: ['OFF/skill.skl', 'KR/skill.skl'] });
    expect(getDocument(bundle, { documentId: docId('qst.kind') }).document).toMatchObject({ trust: null, sources: [] });
  });

  it('shows parent, notInside, sentinels and columns in the resolved definition', () => {
    expect(getDocument(bundle, { documentId: docId('skl.condition value') }).resolvedDefinition.target).toMatchObject({ parent: 'skill apply condition', notInside: null });
    expect(getDocument(bundle, { documentId: docId('skl.plain value') }).resolvedDefinition.target).toMatchObject({ parent: null, notInside: ['skill apply condition'] });
    expect(getDocument(bundle, { documentId: docId('qst.npc') }).resolvedDefinition.annotation).toMatchObject({ sentinels: [['-1', '无 NPC'], ['0', '任意 NPC']], columns: null });
    const list = getDocument(bundle, { documentId: docId('qst.list') });
    expect(list.resolvedDefinition.annotation.columns).toEqual(['任务 {record} 编号', '发布任务的 NPC', '']);
    expect(list.resolvedDefinition.target).toMatchObject({ index: null, recordTokens: 3, tokensPerLineIndex: 0 });
  });
});
