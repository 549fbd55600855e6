/**
 * Layer scenarios: every folder of test/fixtures/layers/ (except search-*) holds one or more layer
 * folders and an expected.json describing the outcome of compiling them in the order it lists.
 *
 * expected.json (checked against ExpectedSchema below, so a typo fails loudly):
 * - `layers`: layer folder names inside the scenario folder, in build order (a missing one is passed
 *   anyway: that is how invalid-missing-layer works).
 * - `ok`: whether compileLayers succeeds.
 * - `documents`: keyed `<layer>/<kind>/<id>` (generated rules: `builtin/rule/field:<fieldId>`); each
 *   entry lists only what it asserts. `versions` maps a version context ("" = unknown) to its state;
 *   `"*"` stands for every context. `overriddenBy` names a document the same way. `resolved` is a
 *   partial match of the resolved definition. `values` is the exact ordered enum list (null = none).
 * - `allDocumentsListed`: the bundle holds exactly the listed documents.
 * - `ruleOrder`: per version context, effective rules in explain order as `<id>@<layer>`.
 * - `relations`: keyed `<layer>/<name>`; `problemKinds` lists the kinds of the relation's problems.
 * - `problems`: each must be reported with exactly this layer (or `layerDir`: the folder path as passed),
 *   file and path, and a message containing `messageIncludes`. For a valid scenario every reported
 *   problem must be listed; for an invalid one `onlyListedErrors` makes the list of errors exhaustive.
 *
 * Invalid scenarios also go through the real write path: a valid bundle is written first, and the
 * invalid build must leave `current` and the folder listing untouched.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileLayers, type CompileResult } from '../../build/compile-layers.js';
import type { Problem } from '../../build/problems.js';
import { writeBundle } from '../../build/write-bundle.js';
import { openBuiltBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../runtime/bundle/schema.js';

const LAYERS_DIR = fileURLToPath(new URL('../fixtures/layers/', import.meta.url));

const REQUIRED_SCENARIOS = [
  'basic',
  'override',
  'disable',
  'field-override',
  'implicit-field',
  'version-filter',
  'cycle',
  'invalid-json',
  'invalid-unknown-key',
  'invalid-type',
  'invalid-duplicate-id',
  'invalid-dangling-field',
  'invalid-dangling-relation',
  'invalid-glob',
  'invalid-missing-layer',
  'invalid-layer-twice',
  'invalid-many',
];

const StateSchema = z.enum(['effective', 'overridden', 'disabled', 'notApplicable', 'suppressed']);

const ExpectedDocumentSchema = z.strictObject({
  kind: z.enum(['rule', 'field']).optional(),
  origin: z.enum(['configured', 'generated']).optional(),
  source: z.enum(['builtin', 'user', 'unknown']).optional(),
  status: z.enum(['effective', 'overridden', 'disabled']).optional(),
  statusReasonIncludes: z.string().optional(),
  overriddenBy: z.string().nullable().optional(),
  versions: z.record(z.string(), StateSchema).optional(),
  versionReasonIncludes: z.record(z.string(), z.string()).optional(),
  fieldId: z.string().nullable().optional(),
  group: z.string().nullable().optional(),
  title: z.string().optional(),
  relation: z.string().nullable().optional(),
  pvfVersions: z.array(z.string()).optional(),
  valueCount: z.int().optional(),
  values: z.array(z.tuple([z.string(), z.string()])).nullable().optional(),
  resolved: z.record(z.string(), z.unknown()).optional(),
});

const ExpectedRelationSchema = z.strictObject({
  kind: z.enum(['list', 'contextual', 'union']).optional(),
  status: z.enum(['effective', 'overridden', 'disabled']).optional(),
  statusReasonIncludes: z.string().optional(),
  listPath: z.string().nullable().optional(),
  effectiveRecordTokens: z.int().optional(),
  resolvedMembers: z.array(z.string()).optional(),
  listPaths: z.array(z.string()).optional(),
  problemKinds: z.array(z.enum(['cycle', 'missing', 'disabled'])).optional(),
});

const ExpectedProblemSchema = z
  .strictObject({
    severity: z.enum(['error', 'warning']),
    layer: z.string().optional(),
    layerDir: z.string().optional(),
    file: z.string(),
    path: z.string(),
    messageIncludes: z.string(),
  })
  .refine((p) => (p.layer === undefined) !== (p.layerDir === undefined), 'give exactly one of layer, layerDir');

const ExpectedSchema = z.strictObject({
  description: z.string(),
  layers: z.array(z.string()).min(1),
  ok: z.boolean(),
  allDocumentsListed: z.boolean().optional(),
  documents: z.record(z.string(), ExpectedDocumentSchema).optional(),
  ruleOrder: z.record(z.string(), z.array(z.string())).optional(),
  relations: z.record(z.string(), ExpectedRelationSchema).optional(),
  problems: z.array(ExpectedProblemSchema),
  onlyListedErrors: z.boolean().optional(),
});
type Expected = z.output<typeof ExpectedSchema>;
type ExpectedProblem = z.output<typeof ExpectedProblemSchema>;

interface Scenario {
  name: string;
  dir: string;
  expected: Expected;
  layerDirs: string[];
}

function listScenarios(): Scenario[] {
  return readdirSync(LAYERS_DIR)
    .filter((name) => !name.startsWith('search-') && statSync(path.join(LAYERS_DIR, name)).isDirectory())
    .filter((name) => existsSync(path.join(LAYERS_DIR, name, 'expected.json')))
    .sort()
    .map((name) => {
      const dir = path.join(LAYERS_DIR, name);
      // Read synchronously at collection time: scenarios become test names.
      const expected = ExpectedSchema.parse(JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')));
      return { name, dir, expected, layerDirs: expected.layers.map((l) => path.join(dir, l)) };
    });
}

const scenarios = listScenarios();
const validScenarios = scenarios.filter((s) => s.expected.ok);
const invalidScenarios = scenarios.filter((s) => !s.expected.ok);

const docKey = (d: BundleDocument) => `${d.layer}/${d.kind}/${d.id}`;

const compiled = new Map<string, Promise<CompileResult>>();
function compile(s: Scenario): Promise<CompileResult> {
  let result = compiled.get(s.name);
  if (!result) {
    result = compileLayers(s.layerDirs);
    compiled.set(s.name, result);
  }
  return result;
}

function describeProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.severity} ${p.layer} ${p.file} ${p.path}: ${p.message}`).join('\n');
}

function problemMatches(s: Scenario, expected: ExpectedProblem, actual: Problem): boolean {
  const layer = expected.layerDir !== undefined ? path.join(s.dir, expected.layerDir) : expected.layer;
  return (
    actual.severity === expected.severity &&
    actual.layer === layer &&
    actual.file === expected.file &&
    actual.path === expected.path &&
    actual.message.includes(expected.messageIncludes)
  );
}

function checkProblems(s: Scenario, problems: readonly Problem[]): void {
  for (const expected of s.expected.problems) {
    expect(
      problems.some((p) => problemMatches(s, expected, p)),
      `expected problem ${JSON.stringify(expected)} not reported; got:\n${describeProblems(problems)}`,
    ).toBe(true);
  }
  const mustBeListed = s.expected.ok ? problems : s.expected.onlyListedErrors ? problems.filter((p) => p.severity === 'error') : [];
  const unexpected = mustBeListed.filter((p) => !s.expected.problems.some((e) => problemMatches(s, e, p)));
  expect(unexpected, `unexpected problems:\n${describeProblems(unexpected)}`).toEqual([]);
}

function expandVersions(states: Record<string, string>, contexts: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of contexts) {
    const state = states[v] ?? states['*'];
    if (state !== undefined) out[v] = state;
  }
  return out;
}

describe('scenario fixtures', () => {
  it('every required scenario folder exists with an expected.json', () => {
    expect(scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(REQUIRED_SCENARIOS));
  });
});

describe.each(validScenarios.map((s) => [s.name, s] as const))('valid scenario %s', (_name, s) => {
  let bundle: Bundle;
  let byKey: Map<string, BundleDocument>;

  beforeAll(async () => {
    const result = await compile(s);
    if (!result.ok) throw new Error(`compile failed:\n${describeProblems(result.problems)}`);
    bundle = openBuiltBundle(result.bundle.files);
    byKey = new Map(bundle.documents.map((d) => [docKey(d), d]));
  });

  it('compiles, with exactly the expected problems (none unless listed)', async () => {
    const result = await compile(s);
    expect(result.ok, describeProblems(result.problems)).toBe(true);
    checkProblems(s, result.problems);
  });

  it('has unique document keys and ids', () => {
    expect(byKey.size).toBe(bundle.documents.length);
    expect(bundle.documentsById.size).toBe(bundle.documents.length);
  });

  if (s.expected.allDocumentsListed) {
    it('holds exactly the listed documents', () => {
      expect([...byKey.keys()].sort()).toEqual(Object.keys(s.expected.documents ?? {}).sort());
    });
  }

  for (const [key, want] of Object.entries(s.expected.documents ?? {})) {
    it(`document ${key}`, () => {
      const doc = byKey.get(key);
      expect(doc, `no document ${key}; have ${[...byKey.keys()].join(', ')}`).toBeDefined();
      if (!doc) return;
      const contexts = ['', ...bundle.manifest.pvfVersions];
      const scalarKeys = ['kind', 'origin', 'source', 'status', 'fieldId', 'group', 'title', 'relation', 'pvfVersions', 'valueCount'] as const;
      for (const k of scalarKeys) {
        if (want[k] !== undefined) expect(doc[k], `${key}.${k}`).toEqual(want[k]);
      }
      if (want.statusReasonIncludes !== undefined) {
        expect(doc.statusReason ?? '', `${key}.statusReason`).toContain(want.statusReasonIncludes);
      }
      if (doc.status === 'effective') expect(doc.statusReason, `${key}: an effective document has no status reason`).toBeNull();
      else expect(doc.statusReason, `${key}: status ${doc.status} needs a reason`).toBeTruthy();
      if (want.overriddenBy !== undefined) {
        if (want.overriddenBy === null) expect(doc.overriddenBy, `${key}.overriddenBy`).toBeNull();
        else {
          const overrider = byKey.get(want.overriddenBy);
          expect(overrider, `overrider ${want.overriddenBy} exists`).toBeDefined();
          expect(doc.overriddenBy, `${key}.overriddenBy`).toBe(overrider?.documentId);
        }
      }
      if (doc.status === 'overridden') expect(doc.overriddenBy, `${key}: overridden needs overriddenBy`).not.toBeNull();
      expect(Object.keys(doc.versions).sort(), `${key}: one entry per version context`).toEqual([...contexts].sort());
      if (want.versions) {
        const states = Object.fromEntries(Object.entries(doc.versions).map(([v, st]) => [v, st.state]));
        expect(states, `${key}.versions`).toEqual(expandVersions(want.versions, contexts));
      }
      for (const [v, st] of Object.entries(doc.versions)) {
        expect(st.effective, `${key}.versions[${v}].effective`).toBe(st.state === 'effective');
        if (st.state === 'effective') expect(st.reason).toBeNull();
        else expect(st.reason, `${key}.versions[${JSON.stringify(v)}] (${st.state}) needs a reason`).toBeTruthy();
      }
      for (const [v, text] of Object.entries(want.versionReasonIncludes ?? {})) {
        expect(doc.versions[v]?.reason ?? '', `${key}.versions[${JSON.stringify(v)}].reason`).toContain(text);
      }
      if (want.values !== undefined) {
        const values = bundle.valuesOf(doc.documentId);
        expect(values, `${key} values`).toEqual(want.values ?? []);
        expect(doc.valueCount, `${key}.valueCount`).toBe(want.values?.length ?? 0);
        expect(doc.resolved.annotation.hasValues, `${key}.resolved.annotation.hasValues`).toBe(want.values !== null);
      }
      if (want.resolved !== undefined) expect(doc.resolved, `${key}.resolved`).toMatchObject(want.resolved);
    });
  }

  if (s.expected.ruleOrder) {
    it('ruleOrder per version context', () => {
      const order = Object.fromEntries(
        Object.entries(bundle.ruleOrder).map(([v, ids]) => [
          v,
          ids.map((id) => {
            const doc = bundle.documentsById.get(id);
            return doc ? `${doc.id}@${doc.layer}` : `missing:${id}`;
          }),
        ]),
      );
      expect(order).toEqual(s.expected.ruleOrder);
    });

    it('ruleOrder holds exactly the rules effective in each context', () => {
      for (const [v, ids] of Object.entries(bundle.ruleOrder)) {
        const effective = bundle.documents.filter((d) => d.kind === 'rule' && d.versions[v]?.effective).map((d) => d.documentId);
        expect([...ids].sort(), `context ${JSON.stringify(v)}`).toEqual(effective.sort());
        // Implicit field rules come after every explicit rule.
        const origins = ids.map((id) => bundle.documentsById.get(id)?.origin);
        const firstGenerated = origins.indexOf('generated');
        if (firstGenerated >= 0) expect(origins.slice(firstGenerated).every((o) => o === 'generated')).toBe(true);
      }
    });
  }

  for (const [key, want] of Object.entries(s.expected.relations ?? {})) {
    it(`relation ${key}`, () => {
      const relation = bundle.relations.find((r) => `${r.layer}/${r.name}` === key);
      expect(relation, `no relation ${key}`).toBeDefined();
      if (!relation) return;
      const { statusReasonIncludes, problemKinds, ...plain } = want;
      expect(relation).toMatchObject(plain);
      if (statusReasonIncludes !== undefined) expect(relation.statusReason ?? '').toContain(statusReasonIncludes);
      if (problemKinds !== undefined) expect(relation.problems.map((p) => p.kind)).toEqual(problemKinds);
    });
  }
});

/** Writes only a valid bundle: the build path under test (compile, then write only when ok). */
async function buildIntoSnapshots(dirs: readonly string[], snapshotsDir: string): Promise<CompileResult> {
  const result = await compileLayers(dirs);
  if (result.ok) await writeBundle(snapshotsDir, result.bundle, { setCurrent: true });
  return result;
}

async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    out.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('invalid scenarios', () => {
  let snapshotsDir: string;
  let tmpRoot: string;
  let goodRevision: string;

  beforeAll(async () => {
    tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-scenarios-'));
    snapshotsDir = path.join(tmpRoot, 'snapshots');
    const basic = scenarios.find((s) => s.name === 'basic');
    if (!basic) throw new Error('the basic scenario is missing');
    const result = await buildIntoSnapshots(basic.layerDirs, snapshotsDir);
    if (!result.ok) throw new Error(`basic scenario does not build:\n${describeProblems(result.problems)}`);
    goodRevision = result.bundle.rulesRevision;
  });

  afterAll(async () => {
    await rm(tmpRoot, { recursive: true, force: true });
  });

  it('the valid bundle was written and is current', async () => {
    expect((await readFile(path.join(snapshotsDir, 'current'), 'utf8')).trim()).toBe(goodRevision);
    expect(await resolveCurrentBundleDir(snapshotsDir)).toBe(path.join(snapshotsDir, goodRevision));
  });

  describe.each(invalidScenarios.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    it('fails to compile and reports the expected problems with layer, file and path', async () => {
      const result = await compile(s);
      expect(result.ok, 'compileLayers must fail').toBe(false);
      expect(result.problems.some((p) => p.severity === 'error')).toBe(true);
      expect('bundle' in result).toBe(false);
      checkProblems(s, result.problems);
    });

    it('never writes: current and the snapshots folder stay unchanged', async () => {
      const before = await listTree(snapshotsDir);
      const currentBefore = await readFile(path.join(snapshotsDir, 'current'), 'utf8');
      const result = await buildIntoSnapshots(s.layerDirs, snapshotsDir);
      expect(result.ok).toBe(false);
      expect(await listTree(snapshotsDir)).toEqual(before);
      expect(await readFile(path.join(snapshotsDir, 'current'), 'utf8')).toBe(currentBefore);
      expect(currentBefore.trim()).toBe(goodRevision);
    });
  });
});
