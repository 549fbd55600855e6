import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { GetInputSchema, MAX_GET_RESPONSE_BYTES, MAX_VALUES_LIMIT } from '../../../runtime/get/get-schema.js';
import { MAX_MATCHED_VALUES } from '../../../runtime/search/search-schema.js';
import { compileBundle, documentIdOf, errorOf, get, search, writeTempLayer } from '../search/helpers.js';

/**
 * A generated layer with one enum rule of 10 001 values: "9999" down to "0", with "001" (distinct from
 * "1") in the middle, so source order is neither numeric nor JavaScript's integer-key order. Written as
 * JSON text by hand because a JS object would reorder integer-like keys.
 */
const KEYS: string[] = [];
for (let k = 9999; k >= 0; k--) {
  KEYS.push(String(k));
  if (k === 5000) KEYS.push('001');
}
const labelOf = (key: string) => (key === '001' ? '前导零一' : `标签${key}`);

const HUGE_CONTENT = '说明 '.repeat(100_000);

let bundle: Bundle;
let cleanup: (() => Promise<void>) | undefined;
let bigId: string;

beforeAll(async () => {
  const values = `{${KEYS.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(labelOf(k))}`).join(',\n')}}`;
  const annotations = `{
  "version": 1,
  "rules": [
    {
      "id": "big.enum",
      "target": { "kind": "token", "section": "big", "index": 0 },
      "annotation": { "title": "大枚举", "type": "enum", "content": "一万个枚举值。", "values": ${values} }
    },
    {
      "id": "huge.content",
      "target": { "kind": "section", "section": "huge" },
      "annotation": { "title": "超长正文", "type": "text", "content": ${JSON.stringify(HUGE_CONTENT)} }
    }
  ]
}
`;
  const layer = await writeTempLayer({
    'layer.json': { name: 'search-large', kind: 'user', pvfVersions: ['90US', '90CN', '110US'] },
    'annotations.json': annotations,
  });
  cleanup = layer.cleanup;
  bundle = await compileBundle(layer.dir);
  bigId = documentIdOf(bundle, 'rule', 'big.enum');
});

afterAll(async () => {
  await cleanup?.();
});

describe('get: a large enum', () => {
  it('pages all values 100 at a time through valuesNextCursor, in source order', () => {
    const seen: { key: string; label: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const out = get(bundle, cursor === undefined ? { documentId: bigId, valuesLimit: MAX_VALUES_LIMIT } : { documentId: bigId, valuesLimit: MAX_VALUES_LIMIT, valuesCursor: cursor });
      expect(out.valueCount).toBe(KEYS.length);
      expect(out.values.length).toBeLessThanOrEqual(MAX_VALUES_LIMIT);
      seen.push(...out.values);
      pages += 1;
      if (out.valuesNextCursor === null) break;
      expect(out.values).toHaveLength(MAX_VALUES_LIMIT);
      cursor = out.valuesNextCursor;
    }
    expect(KEYS.length).toBe(10_001);
    expect(pages).toBe(Math.ceil(KEYS.length / MAX_VALUES_LIMIT));
    expect(seen.map((v) => v.key)).toEqual(KEYS);
    expect(seen.every((v) => v.label === labelOf(v.key))).toBe(true);
  });

  it('keeps "001" and "1" as different keys with different labels', () => {
    expect(get(bundle, { documentId: bigId, value: '001' }).valueLookup).toEqual({ key: '001', found: true, label: '前导零一' });
    expect(get(bundle, { documentId: bigId, value: '1' }).valueLookup).toEqual({ key: '1', found: true, label: '标签1' });
    expect(get(bundle, { documentId: bigId, value: '9999' }).valueLookup).toEqual({ key: '9999', found: true, label: '标签9999' });
  });

  it('answers found false for a missing key without guessing a close one', () => {
    for (const key of ['10000', '01', '0001', '1.0', ' 1', '']) {
      expect(get(bundle, { documentId: bigId, value: key }).valueLookup, key).toEqual({ key, found: false, label: null });
    }
  });

  it('returns a values page with a lookup in the same call', () => {
    const out = get(bundle, { documentId: bigId, value: '001', valuesLimit: 2 });
    expect(out.values).toEqual([{ key: '9999', label: '标签9999' }, { key: '9998', label: '标签9998' }]);
    expect(out.valueLookup?.found).toBe(true);
  });

  it('never puts the values map into the definitions', () => {
    const out = get(bundle, { documentId: bigId });
    expect(out.definitionsOmitValues).toBe(true);
    expect(JSON.stringify(out.rawDefinition)).not.toContain('标签');
    expect(out.values).toHaveLength(50);
  });

  it('refuses a values page larger than 100', () => {
    expect(GetInputSchema.safeParse({ documentId: bigId, valuesLimit: MAX_VALUES_LIMIT + 1 }).success).toBe(false);
    expect(GetInputSchema.safeParse({ documentId: bigId, valuesLimit: 0 }).success).toBe(false);
  });

  it('finds the enum by a label substring and returns at most five matched values', () => {
    const out = search(bundle, { pvfVersion: '90US', query: '标签12' });
    expect(out.items.map((i) => i.ruleId)).toEqual(['big.enum']);
    const matched = out.items[0]?.matchedValues ?? [];
    expect(matched).toHaveLength(MAX_MATCHED_VALUES);
    for (const v of matched) expect(v.label).toContain('标签12');
    expect(out.items[0]?.valueCount).toBe(KEYS.length);
  });

  it('finds the enum by a label that only one value has', () => {
    const [item] = search(bundle, { pvfVersion: '90US', query: '前导零' }).items;
    expect(item?.matchedValues).toEqual([{ key: '001', label: '前导零一' }]);
  });
});

describe('get: response size', () => {
  it('refuses a document over the response limit with RESPONSE_TOO_LARGE instead of cutting it', () => {
    const documentId = documentIdOf(bundle, 'rule', 'huge.content');
    const error = errorOf(() => get(bundle, { documentId }));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.data?.limit).toBe(MAX_GET_RESPONSE_BYTES);
  });

  it('still lists the huge document in search with a truncated summary', () => {
    const [item] = search(bundle, { pvfVersion: '90US', query: '超长正文' }).items;
    expect(item?.ruleId).toBe('huge.content');
    expect(item?.summaryTruncated).toBe(true);
    expect(Array.from(item?.summary ?? '')).toHaveLength(512);
  });
});
