/**
 * Layers add up: a user who stacks rule files written for pvfine (with pvfine's ids for the sections
 * the builtin layer also describes) keeps the builtin knowledge beside theirs. Builtin ids live in
 * their own namespace (`builtin.…`), so only an id reused on purpose overrides.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { annotateScript } from '../../runtime/explain/annotate-script.js';
import { BUILTIN_LAYER } from './helpers.js';

const PVFINE_IDS = fileURLToPath(new URL('../fixtures/pvfine-ids/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  const result = await compileLayers([BUILTIN_LAYER, PVFINE_IDS]);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  bundle = openBuiltBundle(result.bundle.files);
});

describe('builtin + a pvfine-style layer with pvfine ids', () => {
  it('overrides nothing of the builtin layer', () => {
    const overridden = bundle.documents.filter((d) => d.layer === 'builtin' && (d.status === 'overridden' || Object.values(d.versions).some((v) => v.state === 'overridden')));
    expect(overridden.map((d) => d.id)).toEqual([]);
    expect(bundle.documents.every((d) => d.layer !== 'builtin' || d.id.startsWith('builtin.') || d.id.startsWith('field:builtin.'))).toBe(true);
  });

  it("shows both layers' blocks on a shared token, builtin's text kept", () => {
    const text = '[name]\n`测试之剑`\n[rarity]\n4\n';
    const { annotations } = annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/sword.equ', text });
    for (const section of ['name', 'rarity']) {
      const token = annotations.find((a) => a.section === section && a.tokenIndex === 0);
      const layers = new Set(token?.blocks.map((b) => bundle.documents.find((d) => d.documentId === b.documentId)?.layer));
      expect([...layers].sort(), section).toEqual(['builtin', 'pvfine-ids']);
      const builtinBlock = token?.blocks.find((b) => b.ruleId.startsWith('builtin.'));
      expect(builtinBlock?.content.length, section).toBeGreaterThan(20);
    }
  });
});
