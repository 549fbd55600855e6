/**
 * Search hits of a `target.when` rule say which files it applies to (layer
 * test/fixtures/layers/target-extensions); hits of other rules carry no `when`.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { searchDocuments } from '../../../runtime/search/search-documents.js';
import { SearchInputSchema, SearchOutputSchema } from '../../../runtime/search/search-schema.js';
import { compiledBundle } from '../../support/compiled-bundle.js';

const LAYER = fileURLToPath(new URL('../../fixtures/layers/target-extensions/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([LAYER]);
});

describe('search: target.when on the hits', () => {
  it('a when rule\'s hit lists its conditions; other hits have none', () => {
    const output = SearchOutputSchema.parse(searchDocuments(bundle, SearchInputSchema.parse({ pvfVersion: 'all', limit: 100 })));
    const byId = new Map(output.items.map((i) => [i.ruleId, i]));
    expect(byId.get('qst.seeking-item')?.when).toEqual([
      { section: 'type', index: 0, values: ['[seeking]', '[use item]'] },
      { section: 'level', index: 1, values: ['99'] },
    ]);
    expect(byId.get('lst.id')).toBeDefined();
    expect(byId.get('lst.id')).not.toHaveProperty('when');
    expect(output.items.filter((i) => i.when !== undefined).map((i) => i.ruleId)).toEqual(['qst.seeking-item']);
  });
});
