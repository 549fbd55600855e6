/**
 * Suppression of implicit `field:<id>` rules (rule-format §1.9) on a generated layer, checked against
 * the plain definition: in each version context, the first active explicit rule (explain order) that
 * uses the field or `covers` it suppresses the field's implicit rule. resolveLayers finds that rule
 * through an index; this test looks for it the slow way, over every rule.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC, createRandom, generateLayer, writeLayer } from '../../bench/generate-layer.js';
import { compileLayers } from '../../build/compile-layers.js';
import { covers } from '../../build/to-resolved-definition.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../runtime/bundle/schema.js';

type Json = Record<string, unknown>;

let tmp: string;
let bundle: Bundle;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-suppression-'));
  const layer = generateLayer({ ...DEFAULT_SPEC, rules: 300, fields: 120, enumDefinitions: 20, largeEnums: [50], enumValues: 400 });
  // Add rules that cover fields: same annotation type, title, relation, pathRoot and target (the section
  // in another case), with an empty, equal or different match, some restricted to one version.
  const rand = createRandom(7);
  const fields = layer.annotations.fields as Json[];
  const rules = layer.annotations.rules as Json[];
  for (let i = 0; i < 80; i++) {
    const field = fields[Math.floor(rand() * fields.length)] as Json;
    const target = { ...(field.target as Json) };
    if (typeof target.section === 'string' && rand() < 0.5) target.section = target.section.toUpperCase();
    const annotation: Json = { ...(field.annotation as Json), content: 'covering rule' };
    const rule: Json = { id: `cover.${i}`, target, annotation };
    const r = rand();
    if (r < 0.4) rule.match = field.match;
    else if (r < 0.6) rule.match = { extensions: ['.zzz'] };
    if (rand() < 0.2) rule.pvfVersions = ['110US'];
    if (rand() < 0.2) (rule.annotation as Json).title = `${String(annotation.title)} (other)`;
    rules.splice(Math.floor(rand() * rules.length), 0, rule);
  }
  const dir = path.join(tmp, 'layer');
  await writeLayer(dir, layer);
  const result = await compileLayers([dir]);
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));
  bundle = openBuiltBundle(result.bundle.files);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('implicit field rules', () => {
  it('are suppressed by exactly the first active rule that uses or covers the field, in every version context', () => {
    const generated = bundle.documents.filter((d) => d.origin === 'generated');
    let suppressed = 0;
    let byCover = 0;
    for (const [context, order] of Object.entries(bundle.ruleOrder)) {
      const explicit = order.map((id) => bundle.documentsById.get(id) as BundleDocument).filter((d) => d.origin === 'configured');
      for (const g of generated) {
        const state = g.versions[context];
        if (state?.state !== 'effective' && state?.state !== 'suppressed') continue;
        const by = explicit.find((r) => r.fieldId === g.fieldId || covers(r.resolved, g.resolved));
        if (by === undefined) {
          expect(state, `${g.id} in "${context}"`).toEqual({ state: 'effective', effective: true, reason: null });
          expect(order).toContain(g.documentId);
        } else {
          const how = by.fieldId === g.fieldId ? 'uses this field' : 'covers this field';
          expect(state, `${g.id} in "${context}"`).toEqual({ state: 'suppressed', effective: false, reason: `suppressed: rule "${by.id}" ${how}` });
          expect(order).not.toContain(g.documentId);
          suppressed++;
          if (how === 'covers this field') byCover++;
        }
      }
    }
    // The layer exercises both ways, so the check above is not vacuous.
    expect(suppressed).toBeGreaterThan(50);
    expect(byCover).toBeGreaterThan(20);
  });
});
