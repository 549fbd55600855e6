/**
 * The editor JSON Schemas of the rule files (build/rule-json-schemas.ts, tracked in schemas/):
 * draft-07 and fresh; every key documented, every closed set as oneOf [{const, description}]; every
 * file of rules/builtin and every fixture layer pvfdoc accepts is accepted (Ajv 8, draft-07); what
 * pvfdoc refuses is refused, hand-made case by case; and the schema never refuses what pvfdoc accepts
 * without a problem (random rules, fields, relations, rendering rules and manifests). Also the site's
 * copy and the npm package's.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import type { Problem } from '../../build/problems.js';
import { ANNOTATION_TYPES, LAYER_KINDS, RELATION_KINDS, RENDERING_TARGET_KINDS, TARGET_KINDS, TRUST_LEVELS } from '../../build/rule-json-schema-enums.js';
import type { RuleSchemaFile } from '../../build/rule-json-schema-notes.js';
import { RULE_SCHEMA_DIR, RULE_SCHEMAS, ruleJsonSchema, ruleJsonSchemaText } from '../../build/rule-json-schemas.js';
import { validateLayers } from '../../build/validate-layers.js';
import { AnnotationTypeSchema, RelationKindSchema, TargetKindSchema, TrustSchema } from '../../runtime/bundle/schema.js';
import { GET, getStaticPaths } from '../../site/src/pages/schemas/[name].json.js';

type Json = Record<string, unknown>;

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Which schema describes a file of a layer folder (its path inside the folder, with "/"). */
function schemaOf(file: string): RuleSchemaFile | null {
  const fits = (pattern: string): boolean => new RegExp(`^${pattern.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`, 'i').test(file);
  return RULE_SCHEMAS.find((s) => s.layerFiles.some(fits))?.name ?? null;
}

function compileAll(): Record<RuleSchemaFile, ValidateFunction> {
  // strictSchema (the default) refuses unknown keywords: only VS Code's two may appear besides draft-07's.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  ajv.addVocabulary(['errorMessage', 'patternErrorMessage']);
  const entries = RULE_SCHEMAS.map((s) => [s.name, ajv.compile(ruleJsonSchema(s.name))] as const);
  return Object.fromEntries(entries) as Record<RuleSchemaFile, ValidateFunction>;
}

let validators: Record<RuleSchemaFile, ValidateFunction>;
let work = '';
let counter = 0;

beforeAll(async () => {
  validators = compileAll();
  work = await mkdtemp(path.join(tmpdir(), 'pvfdoc-rule-schemas-'));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** As the file would hold it (undefined members dropped). */
function asWritten(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function accepts(name: RuleSchemaFile, value: unknown): boolean {
  return validators[name](asWritten(value));
}

function schemaErrors(name: RuleSchemaFile, value: unknown): string {
  validators[name](asWritten(value));
  return JSON.stringify(validators[name].errors?.slice(0, 5) ?? []);
}

const LISTS = {
  version: 1,
  relations: {
    装备: { listPath: 'equipment/equipment.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' },
    道具: { kind: 'list', listPath: 'stackable/stackable.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' },
    物品: { kind: 'union', relations: ['装备', '道具'] },
    技能: { kind: 'contextual', contextToken: 0, idToken: 1, pathToken: 2, recordTokens: 3, nameSection: 'name', contextPaths: { '[fighter]': 'skill/fighterskill.lst' } },
  },
};

const MANIFEST = { name: 'schema-case', kind: 'user' };

/** Writes a layer folder (files by layer-relative path; objects as JSON) and returns pvfdoc's problems. */
async function pvfdocProblems(files: Record<string, unknown>): Promise<Problem[]> {
  counter += 1;
  const dir = path.join(work, `layer-${counter}`);
  const all: Record<string, unknown> = { 'layer.json': MANIFEST, 'lists.json': LISTS, ...files };
  for (const [file, value] of Object.entries(all)) {
    if (value === undefined) continue;
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
  const { layers, problems } = await loadLayers([dir]);
  return [...problems, ...validateLayers(layers)];
}

// ---------------------------------------------------------------------------------------------------

describe('the tracked schemas', () => {
  it('are the ones the generator writes now (run npm run schemas after changing the rule shapes)', async () => {
    for (const schema of RULE_SCHEMAS) {
      const tracked = await readFile(path.join(ROOT, RULE_SCHEMA_DIR, schema.fileName), 'utf8').catch(() => '(missing)');
      expect(tracked, `${RULE_SCHEMA_DIR}/${schema.fileName} is stale: run npm run schemas`).toBe(ruleJsonSchemaText(schema.name));
    }
    const names = (await readdir(path.join(ROOT, RULE_SCHEMA_DIR))).sort();
    expect(names).toEqual(RULE_SCHEMAS.map((s) => s.fileName).sort());
  });

  it('are draft-07 documents with a title and a Chinese-first description', () => {
    for (const schema of RULE_SCHEMAS) {
      const json = ruleJsonSchema(schema.name);
      expect(json.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(json.title).toEqual(expect.stringMatching(/[\u4e00-\u9fff]/));
      expect(String(json.description).split('\n')[0]).toMatch(/^[^A-Za-z]*[\u4e00-\u9fff]/);
    }
  });

  it('document every key with a title and a description, Chinese first', () => {
    const undocumented: string[] = [];
    for (const schema of RULE_SCHEMAS) {
      const json = ruleJsonSchema(schema.name);
      const definitions = (json.definitions ?? {}) as Record<string, Json>;
      // zod leaves out what a property repeats of the definition it refers to; editors read it there.
      const referred = (property: Json): Json[] =>
        ((property.allOf ?? []) as Json[]).flatMap((member) => (typeof member.$ref === 'string' ? [definitions[member.$ref.replace('#/definitions/', '')] as Json] : []));
      const visit = (node: Json, where: string): void => {
        for (const [key, property] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
          const title = [property, ...referred(property)].find((s) => typeof s.title === 'string')?.title;
          const description = [property, ...referred(property)].find((s) => typeof s.description === 'string')?.description;
          const ok = typeof title === 'string' && typeof description === 'string' && /^[^\n]*[\u4e00-\u9fff][^\n]*\n[^\n]*[A-Za-z]/.test(description);
          if (!ok) undocumented.push(`${schema.fileName} ${where}.${key}`);
          for (const nested of [property, property.items, property.additionalProperties]) {
            if (nested && typeof nested === 'object' && 'properties' in nested) visit(nested as Json, `${where}.${key}`);
          }
        }
      };
      visit(json, '$');
      for (const [name, definition] of Object.entries(definitions)) visit(definition, `#/definitions/${name}`);
    }
    expect(undocumented, 'add a note in build/rule-json-schema-notes.ts for each').toEqual([]);
  });

  it('write every closed set as oneOf [{const, description}] with the same values as the runtime enums', () => {
    const annotations = ruleJsonSchema('annotations');
    const defs = annotations.definitions as Record<string, Json>;
    const constsAt = (schema: Json): string[] => {
      const oneOf = schema.oneOf as Json[];
      for (const choice of oneOf) {
        expect(choice.description).toEqual(expect.stringMatching(/^[^\n]*[\u4e00-\u9fff][^\n]*\n[A-Za-z"]/));
      }
      expect(schema.enum).toBeUndefined();
      return oneOf.map((c) => c.const as string);
    };
    const prop = (def: Json, key: string): Json => (def.properties as Record<string, Json>)[key] as Json;
    expect(constsAt(prop(defs.Target as Json, 'kind'))).toEqual([...TargetKindSchema.options, '']);
    expect(constsAt(prop(defs.Annotation as Json, 'type')).sort()).toEqual([...AnnotationTypeSchema.options, ''].sort());
    expect(constsAt(defs.Trust as Json)).toEqual([...TrustSchema.options]);
    expect(constsAt(prop(defs.Relation as Json, 'kind'))).toEqual([...RelationKindSchema.options, '']);
    const rendering = ruleJsonSchema('rendering');
    const renderingRule = (rendering.definitions as Record<string, Json>).RenderingRule as Json;
    expect(constsAt(prop(prop(renderingRule, 'target'), 'kind'))).toEqual(RENDERING_TARGET_KINDS.map((c) => c.value));
    expect(constsAt(prop(ruleJsonSchema('layer'), 'kind'))).toEqual(LAYER_KINDS.map((c) => c.value));
    for (const table of [TARGET_KINDS, ANNOTATION_TYPES, RELATION_KINDS, TRUST_LEVELS]) expect(table.length).toBeGreaterThan(1);
  });
});

describe('files pvfdoc accepts', () => {
  it('every rule file of rules/builtin is accepted', async () => {
    const dir = path.join(ROOT, 'rules/builtin');
    const files = (await readdir(dir, { recursive: true })).map((f) => f.split(path.sep).join('/')).filter((f) => schemaOf(f) !== null);
    expect(files.length).toBeGreaterThanOrEqual(39);
    expect(files).toEqual(expect.arrayContaining(['layer.json', 'annotations.json', 'lists.json', 'rendering.json', 'annotations/equ.json']));
    for (const file of files) {
      const value = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as unknown;
      const name = schemaOf(file) as RuleSchemaFile;
      expect(accepts(name, value), `rules/builtin/${file}: ${schemaErrors(name, value)}`).toBe(true);
    }
  });

  it('every fixture layer file is accepted unless pvfdoc reports a problem in it', async () => {
    const layerDirs: string[] = [];
    for (const top of ['test/fixtures', 'test/golden', 'examples']) {
      for (const entry of await readdir(path.join(ROOT, top), { recursive: true })) {
        if (path.basename(entry) === 'layer.json') layerDirs.push(path.join(ROOT, top, path.dirname(entry)));
      }
    }
    expect(layerDirs.length).toBeGreaterThan(40);
    let checked = 0;
    let refused = 0;
    for (const dir of layerDirs) {
      const { layers, problems } = await loadLayers([dir]);
      const all = [...problems, ...validateLayers(layers)];
      for (const entry of await readdir(dir, { recursive: true })) {
        const file = entry.split(path.sep).join('/');
        const name = schemaOf(file);
        if (name === null) continue;
        let value: unknown;
        try {
          value = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
        } catch {
          continue; // not JSON: pvfdoc says so, an editor too
        }
        const reported = all.some((p) => p.file === file || p.file === '');
        if (accepts(name, value)) continue;
        refused += 1;
        expect(reported, `${path.relative(ROOT, dir)}/${file} is refused by the schema but pvfdoc reports nothing: ${schemaErrors(name, value)}`).toBe(true);
      }
      checked += 1;
    }
    expect(checked).toBe(layerDirs.length);
    // The invalid-* fixtures and the pvfine fixture's key-case warnings.
    expect(refused).toBeGreaterThan(5);
  });
});

// ---------------------------------------------------------------------------------------------------
// Hand-made cases: pvfdoc and the schema agree

const rule = (target: Json = {}, annotation: Json = {}, extra: Json = {}): Json => ({
  id: 'r',
  match: { extensions: ['.equ'] },
  target: { kind: 'token', section: 'name', index: 0, ...target },
  annotation: { title: 't', type: 'text', ...annotation },
  ...extra,
});

const FIELD = { id: 'f', match: { extensions: ['.equ'] }, target: { kind: 'section', section: 'name' }, annotation: { title: 'x', type: 'text' } };

const rules = (...items: Json[]): Json => ({ version: 1, fields: [FIELD], rules: items });
const fields = (...items: Json[]): Json => ({ version: 1, fields: items });
const relations = (relations: Json): Json => ({ version: 1, relations });
const listsRelation = (relation: Json): Json => relations({ ...LISTS.relations, x: relation });
const renderingRule = (extra: Json = {}, format: Json = { tokensPerLine: 2 }): Json => ({
  version: 1,
  rules: [{ id: 'x', target: { kind: 'section', section: 'skill' }, format, ...extra }],
});

/** [what, layer file, its content] — pvfdoc reports an error (or, where said, a warning) and the schema refuses. */
const REFUSED: [string, string, Json][] = [
  // shape: unknown keys, wrong types, missing keys
  ['an unknown top-level key', 'annotations.json', { version: 1, rules: [], previews: [] }],
  ['an unknown key in a rule', 'annotations.json', rules(rule({}, {}, { disabled: true }))],
  ['an unknown key in a target', 'annotations.json', rules(rule({ priority: 1 }))],
  ['an unknown key in a relation', 'lists.json', listsRelation({ listPath: 'a.lst', nameSection: 'name', extends: 'x' })],
  ['an unknown key in a rendering format', 'rendering.json', renderingRule({}, { tokensPerLine: 2, wrap: true })],
  ['an unknown key in layer.json', 'layer.json', { ...MANIFEST, priority: 1 }],
  ['a string index', 'annotations.json', rules(rule({ index: '0' }))],
  ['a fractional recordTokens', 'annotations.json', rules(rule({ recordTokens: 1.5 }))],
  ['a standaloneValues entry past int32', 'annotations.json', rules(rule({ recordTokens: 2, standaloneValues: [2147483648] }))],
  ['inlineImage as a string', 'annotations.json', rules(rule({ recordTokens: 2, imagePathToken: 1 }, { type: 'image', inlineImage: 'yes' }))],
  ['values as an array', 'annotations.json', rules(rule({}, { type: 'enum', values: ['a'] }))],
  ['a numeric idToken as a string', 'lists.json', listsRelation({ listPath: 'a.lst', nameSection: 'name', idToken: '0' })],
  ['a missing version', 'annotations.json', { rules: [] }],
  ['version 2', 'lists.json', { version: 2, relations: LISTS.relations }],
  ['a layer.json without a name', 'layer.json', { kind: 'user' }],
  // closed sets
  ['an unknown target kind', 'annotations.json', rules(rule({ kind: 'file' }))],
  ['an unknown annotation type', 'annotations.json', rules(rule({}, { type: 'link' }))],
  ['an unknown trust', 'annotations.json', rules(rule({}, {}, { trust: 'certain' }))],
  ['an unknown relation kind', 'lists.json', listsRelation({ kind: 'table', listPath: 'a.lst', nameSection: 'name' })],
  ['an unknown rendering target kind', 'rendering.json', renderingRule({ target: { kind: 'token', section: 'skill' } })],
  ['an unknown layer kind (a warning)', 'layer.json', { ...MANIFEST, kind: 'vendor' }],
  // required values
  ['a rule without an id', 'annotations.json', rules({ ...rule(), id: undefined })],
  ['a blank rule id', 'annotations.json', rules(rule({}, {}, { id: ' ' }))],
  ['a rule with neither field nor target', 'annotations.json', rules({ id: 'r', annotation: { title: 't', type: 'text' } })],
  ['a rule without field whose kind is empty', 'annotations.json', rules(rule({ kind: '' }))],
  ['a field without an annotation', 'annotations.json', fields({ id: 'g', target: { kind: 'section', section: 'name' } })],
  ['a field with the empty type of field rules', 'annotations.json', fields({ ...FIELD, id: 'g', annotation: { title: 'x', type: '' } })],
  ['a list relation without listPath', 'lists.json', listsRelation({ nameSection: 'name' })],
  ['a relation without nameSection', 'lists.json', listsRelation({ listPath: 'a.lst' })],
  ['a union without members', 'lists.json', listsRelation({ kind: 'union', relations: [] })],
  ['a contextual relation without contextPaths', 'lists.json', listsRelation({ kind: 'contextual', recordTokens: 2, pathToken: 1, nameSection: 'name' })],
  ['a contextual relation without recordTokens', 'lists.json', listsRelation({ kind: 'contextual', pathToken: 1, nameSection: 'name', contextPaths: { a: 'a.lst' } })],
  ['a blank relation name', 'lists.json', relations({ ...LISTS.relations, ' ': { listPath: 'a.lst', nameSection: 'name' } })],
  ['a rendering rule without format', 'rendering.json', { version: 1, rules: [{ id: 'x', target: { kind: 'file' } }] }],
  ['tokensPerLine 0', 'rendering.json', renderingRule({}, { tokensPerLine: 0 })],
  ['a file rendering rule with a section', 'rendering.json', renderingRule({ target: { kind: 'file', section: 'skill' } })],
  ['a section rendering rule without a section', 'rendering.json', renderingRule({ target: { kind: 'section' } })],
  ['a preview without provider', 'annotations.json', fields({ ...FIELD, id: 'g', preview: { role: 'name', group: 'header', format: 'text' } })],
  ['a preview with a blank role', 'annotations.json', fields({ ...FIELD, id: 'g', preview: { provider: 'equ', role: ' ', group: 'header', format: 'text' } })],
  // values of one key
  ['an extension without its dot', 'annotations.json', rules(rule({}, {}, { match: { extensions: ['equ'] } }))],
  ['a negative index', 'annotations.json', rules(rule({ index: -1 }))],
  ['a negative idToken', 'lists.json', listsRelation({ listPath: 'a.lst', nameSection: 'name', idToken: -1 })],
  ['a blank sources entry', 'annotations.json', rules(rule({}, {}, { sources: ['OFF/a.equ', ' '] }))],
  ['an enum without values', 'annotations.json', rules(rule({}, { type: 'enum', values: {} }))],
  ['a reference without relation', 'annotations.json', rules(rule({}, { type: 'reference' }))],
  ['a pathRoot above the archive', 'annotations.json', rules(rule({}, { type: 'path', pathRoot: '../etc' }))],
  ['a pathRoot on a text annotation', 'annotations.json', rules(rule({}, { pathRoot: 'equipment/' }))],
  ['inlineImage on a text annotation', 'annotations.json', rules(rule({}, { inlineImage: true }))],
  ['sentinels on a text annotation', 'annotations.json', rules(rule({}, { sentinels: { '-1': '无' } }))],
  ['columns on an enum annotation', 'annotations.json', rules(rule({ index: undefined, recordTokens: 2 }, { type: 'enum', values: { 0: 'a' }, columns: ['a'] }))],
  ['a layer name with a space inside', 'layer.json', { ...MANIFEST, name: 'my layer' }],
  ['a pvfVersions entry with a space', 'layer.json', { ...MANIFEST, pvfVersions: ['110 US'] }],
  ['a disable entry that is no identity', 'layer.json', { ...MANIFEST, disable: ['builtin.equ.name'] }],
  // one target, one annotation
  ['offset on a section target', 'annotations.json', rules(rule({ kind: 'section', index: undefined, offset: 1 }))],
  ['parent on a path target', 'annotations.json', rules(rule({ kind: 'path', index: undefined, parent: 'x' }))],
  ['a blank section', 'annotations.json', rules(rule({ section: ' ' }))],
  ['section and sectionPattern together', 'annotations.json', rules(rule({ sectionPattern: 'FRAME*' }))],
  ['topLevel with a section', 'annotations.json', rules(rule({ topLevel: true }))],
  ['topLevel on a section target', 'annotations.json', rules(rule({ kind: 'section', index: undefined, topLevel: false }))],
  ['groupOffset without recordTokens', 'annotations.json', rules(rule({ groupOffset: 1 }))],
  ['a range that ends at 0', 'annotations.json', rules(rule({ index: undefined, range: { start: 0 } }))],
  ['a path target of type enum', 'annotations.json', rules(rule({ kind: 'path', index: undefined }, { type: 'enum', values: { 0: 'a' } }))],
  ['a section target of type reference', 'annotations.json', rules(rule({ kind: 'section', index: undefined }, { type: 'reference', relation: '装备' }))],
  ['a token target with index and range', 'annotations.json', rules(rule({ range: { start: 0, endExclusive: 2 } }))],
  ['a token target with neither index nor range', 'annotations.json', rules(rule({ index: undefined }))],
  ['a range on an enum', 'annotations.json', rules(rule({ index: undefined, range: { start: 0, endExclusive: 2 } }, { type: 'enum', values: { 0: 'a' } }))],
  ['contextIndex without recordTokens', 'annotations.json', rules(rule({ contextIndex: 0 }))],
  ['recordTokens with a range', 'annotations.json', rules(rule({ index: undefined, range: { start: 0, endExclusive: 2 }, recordTokens: 2 }))],
  ['imagePathToken on a text annotation', 'annotations.json', rules(rule({ recordTokens: 2, imagePathToken: 1 }))],
  ['an image without recordTokens', 'annotations.json', rules(rule({ imagePathToken: 1 }, { type: 'image' }))],
  ['an image without imagePathToken', 'annotations.json', rules(rule({ recordTokens: 2 }, { type: 'image' }))],
  ['an image with contextIndex', 'annotations.json', rules(rule({ recordTokens: 2, imagePathToken: 1, contextIndex: 0 }, { type: 'image' }))],
  ['columns with an index', 'annotations.json', rules(rule({ recordTokens: 2 }, { columns: ['a', 'b'] }))],
  ['columns without records', 'annotations.json', rules(rule({ index: undefined }, { columns: ['a', 'b'] }))],
  ['columns with tokensPerLineIndex and no fallback width', 'annotations.json', rules(rule({ index: undefined, tokensPerLineIndex: 0 }, { columns: ['a'] }))],
  ['columns on a section target', 'annotations.json', rules(rule({ kind: 'section', index: undefined }, { columns: ['a'] }))],
  ['the same in a field', 'annotations.json', fields({ ...FIELD, id: 'g', target: { kind: 'token', section: 'name', index: 0, range: { start: 0, endExclusive: 1 } } })],
  ['the same in a rule that uses a field and has blocks of its own', 'annotations.json', rules(rule({ range: { start: 0, endExclusive: 1 } }, {}, { field: 'f' }))],
];

/** [what, layer file, its content] — pvfdoc reports nothing and the schema accepts. */
const ACCEPTED: [string, string, Json][] = [
  ['a rule that takes everything from its field', 'annotations.json', rules({ id: 'r', field: 'f' })],
  ["pvfine's empty blocks on a field rule", 'annotations.json', rules({ id: 'r', field: 'f', match: {}, target: { kind: '' }, annotation: { title: '', type: '' } })],
  ['a field rule with its own target only', 'annotations.json', rules({ id: 'r', field: 'f', target: { kind: 'token', section: 'name', index: 0 } })],
  ['a relation with kind ""', 'lists.json', listsRelation({ kind: '', listPath: 'a.lst', nameSection: 'name' })],
  ['a union with a blank nameSection', 'lists.json', listsRelation({ kind: 'union', relations: ['装备'], nameSection: '' })],
  ["pvfine's legacy image form", 'annotations.json', rules(rule({ index: 1, recordTokens: 2, imageIndexToken: 0 }, { type: 'image', inlineImage: true }))],
  ['an image rule', 'annotations.json', rules(rule({ index: 0, recordTokens: 2, imagePathToken: 1 }, { type: 'image' }))],
  ['a contextual reference', 'annotations.json', rules(rule({ index: 1, recordTokens: 3, contextIndex: 0 }, { type: 'reference', relation: '技能' }))],
  ['repeated records', 'annotations.json', rules(rule({ index: 0, recordTokens: 2, offset: 1, groupOffset: 1, standaloneValues: [-1] }))],
  ['a path target with an ignored section and index', 'annotations.json', rules(rule({ kind: 'path', section: 'x', index: -1 }, {}, { match: { glob: 'etc/**' } }))],
  ['a section target with sectionPattern', 'annotations.json', rules(rule({ kind: 'section', section: undefined, index: undefined, sectionPattern: 'FRAME[0-9]' }))],
  ['topLevel tokens', 'annotations.json', rules(rule({ section: undefined, topLevel: true, recordTokens: 2 }))],
  ['topLevel false', 'annotations.json', rules(rule({ topLevel: false }))],
  ['columns over records', 'annotations.json', rules(rule({ index: undefined, recordTokens: 3, tokensPerLineIndex: 0, offset: 1 }, { columns: ['a', ''] }))],
  ['sentinels on a reference', 'annotations.json', rules(rule({}, { type: 'reference', relation: '装备', sentinels: { '-1': '无' } }))],
  ['values on a text annotation', 'annotations.json', rules(rule({}, { values: { 0: 'a' } }))],
  ['offset 0 on a section target', 'annotations.json', rules(rule({ kind: 'section', index: undefined, offset: 0, standaloneValues: [] }))],
  ['a preview with providers', 'annotations.json', fields({ ...FIELD, id: 'g', preview: { provider: ' ', providers: ['equ'], role: 'name', group: 'header', format: 'text', order: 1 } })],
  ['a rendering extension with spaces and capitals', 'rendering.json', renderingRule({ match: { extensions: [' .LST'] } })],
  ['a file rendering rule with a blank section', 'rendering.json', renderingRule({ target: { kind: 'file', section: ' ' } })],
  ['a layer name with spaces around it', 'layer.json', { ...MANIFEST, name: ' mine ' }],
  ['a layer declaring a version', 'layer.json', { ...MANIFEST, pvfVersions: ['110US', 'KR'], description: '说明' }],
  ['a layer.json naming its schema', 'layer.json', { $schema: './node_modules/pvfdoc/schemas/layer.schema.json', ...MANIFEST }],
];

describe('hand-made files', () => {
  it.each(REFUSED)('%s: pvfdoc reports it and the schema refuses it', async (_what, file, content) => {
    const problems = (await pvfdocProblems({ [file]: content })).filter((p) => p.file === file);
    expect(problems.length, 'pvfdoc should report this case').toBeGreaterThan(0);
    const name = schemaOf(file) as RuleSchemaFile;
    expect(accepts(name, content), `pvfdoc: ${problems[0]?.message ?? ''}`).toBe(false);
  });

  it.each(ACCEPTED)('%s: pvfdoc and the schema accept it', async (_what, file, content) => {
    expect(await pvfdocProblems({ [file]: content })).toEqual([]);
    const name = schemaOf(file) as RuleSchemaFile;
    expect(accepts(name, content), schemaErrors(name, content)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// Random definitions: the schema never refuses what pvfdoc accepts without a word

function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq: 2 });
}

/** Drops undefined members, as JSON.stringify would. */
function compact(value: Record<string, unknown>): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

const small = fc.integer({ min: -1, max: 3 });
const targetArb = fc
  .record({
    kind: optional(fc.constantFrom('path', 'section', 'token', 'token', 'token', '', 'file')),
    section: optional(fc.constantFrom('name', 'name', ' ', '')),
    index: optional(small),
    range: optional(fc.record({ start: optional(small), endExclusive: optional(small) }).map(compact)),
    offset: optional(small),
    groupOffset: optional(small),
    standaloneValues: optional(fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 2 })),
    recordTokens: optional(small),
    tokensPerLineIndex: optional(small),
    contextIndex: optional(small),
    imagePathToken: optional(small),
    imageIndexToken: optional(small),
    parent: optional(fc.constantFrom('skill', ' ')),
    notInside: optional(fc.array(fc.constantFrom('reward', ' '), { maxLength: 2 })),
    topLevel: optional(fc.boolean()),
    sectionPattern: optional(fc.constantFrom('FRAME[0-9]', ' ', '[', 'a*')),
  })
  .map(compact);
const annotationArb = fc
  .record({
    title: optional(fc.constantFrom('', 't')),
    content: optional(fc.constantFrom('', 'c')),
    type: optional(fc.constantFrom('text', 'text', 'enum', 'reference', 'path', 'image', '', 'link')),
    values: optional(fc.constantFrom({}, { 0: 'a' })),
    relation: optional(fc.constantFrom('装备', '技能', '物品', '', 'nope')),
    pathRoot: optional(fc.constantFrom('', 'equipment/', '../x', '/x', ' ', 'a\\..\\b')),
    inlineImage: optional(fc.boolean()),
    sentinels: optional(fc.constantFrom({}, { '-1': '无' }, { ' ': 'x' })),
    columns: optional(fc.constantFrom([], ['a', ''])),
  })
  .map(compact);
const matchArb = fc
  .record({ extensions: optional(fc.array(fc.constantFrom('.equ', 'equ', '', '.a/b', ' .equ'), { maxLength: 2 })), glob: optional(fc.constantFrom('', 'a/**', '[')) })
  .map(compact);
const commonArb = {
  pvfVersions: optional(fc.array(fc.constantFrom('90US', '110US', 'bad'), { maxLength: 2 })),
  match: optional(matchArb),
  target: optional(targetArb),
  annotation: optional(annotationArb),
  trust: optional(fc.constantFrom('confirmed', 'likely', 'nope')),
  sources: optional(fc.array(fc.constantFrom('OFF/a.equ', ' '), { maxLength: 2 })),
};
const ruleArb = fc
  .record({ id: optional(fc.constantFrom('r', 'r', ' ')), field: optional(fc.constantFrom('f', ' ', 'missing')), description: optional(fc.constant('d')), group: optional(fc.constant('g')), ...commonArb })
  .map(compact);
const previewArb = fc
  .record({
    provider: optional(fc.constantFrom('equ', ' ')),
    providers: optional(fc.array(fc.constantFrom('equ', ''), { maxLength: 2 })),
    role: optional(fc.constantFrom('name', ' ')),
    group: optional(fc.constantFrom('header', '')),
    format: optional(fc.constantFrom('text', ' ')),
    order: optional(small),
    label: optional(fc.constant('l')),
  })
  .map(compact);
const fieldArb = fc.record({ id: optional(fc.constantFrom('g', ' ')), preview: optional(previewArb), ...commonArb }).map(compact);
const relationArb = fc
  .record({
    kind: optional(fc.constantFrom('list', 'contextual', 'union', '', 'table')),
    listPath: optional(fc.constantFrom('a.lst', ' ')),
    idToken: optional(small),
    pathToken: optional(small),
    recordTokens: optional(small),
    nameSection: optional(fc.constantFrom('name', ' ')),
    contextToken: optional(small),
    contextPaths: optional(fc.constantFrom({}, { '[fighter]': 'a.lst' }, { ' ': 'a.lst' }, { a: '' })),
    relations: optional(fc.constantFrom([], ['装备'], ['x'], [' '], ['nope'])),
  })
  .map(compact);
const renderingArb = fc
  .record({
    id: optional(fc.constantFrom('x', ' ')),
    match: optional(matchArb),
    target: optional(fc.record({ kind: optional(fc.constantFrom('file', 'section', '', 'token')), section: optional(fc.constantFrom('skill', ' ')) }).map(compact)),
    format: optional(
      fc
        .record({
          tokensPerLine: optional(small),
          offset: optional(small),
          tokensPerLineIndex: optional(small),
          standaloneValues: optional(fc.array(fc.integer({ min: -1, max: 1 }), { maxLength: 1 })),
          nestedSections: optional(fc.constantFrom([], ['list'])),
        })
        .map(compact),
    ),
  })
  .map(compact);
const manifestArb = fc
  .record({
    name: optional(fc.constantFrom('mine', ' mine', 'my layer', '-x', '')),
    kind: optional(fc.constantFrom('builtin', 'user', 'vendor')),
    pvfVersions: optional(fc.array(fc.constantFrom('110US', 'KR', '1 0', ''), { maxLength: 2 })),
    disable: optional(fc.array(fc.constantFrom('rule:x', 'rule: ', 'field:y', 'x'), { maxLength: 1 })),
  })
  .map(compact);

/** Asserts, per sample: when the schema refuses the file, pvfdoc reports a problem in it. */
async function neverStricter(name: RuleSchemaFile, file: string, arb: fc.Arbitrary<Json>, seed: number): Promise<number> {
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(arb, async (content) => {
      if (accepts(name, content)) return;
      refused += 1;
      const problems = (await pvfdocProblems({ [file]: content })).filter((p) => p.file === file);
      expect(problems.length, `the schema refuses ${JSON.stringify(content)} (${schemaErrors(name, content)}) but pvfdoc accepts it`).toBeGreaterThan(0);
    }),
    { numRuns: 300, seed },
  );
  return refused;
}

describe('random definitions', () => {
  it('rules: the schema refuses only what pvfdoc reports', async () => {
    const refused = await neverStricter('annotations', 'annotations.json', ruleArb.map((r) => rules(r)), 17_04);
    expect(refused).toBeGreaterThan(100);
  }, 120_000);

  it('fields', async () => {
    expect(await neverStricter('annotations', 'annotations.json', fieldArb.map((f) => fields(f)), 17_05)).toBeGreaterThan(100);
  }, 120_000);

  it('relations', async () => {
    expect(await neverStricter('lists', 'lists.json', relationArb.map((r) => listsRelation(r)), 17_06)).toBeGreaterThan(50);
  }, 120_000);

  it('rendering rules', async () => {
    expect(await neverStricter('rendering', 'rendering.json', renderingArb.map((r) => ({ version: 1, rules: [r] })), 17_07)).toBeGreaterThan(50);
  }, 120_000);

  it('layer manifests', async () => {
    expect(await neverStricter('layer', 'layer.json', manifestArb, 17_08)).toBeGreaterThan(50);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------

describe('where the schemas are published', () => {
  it('the site serves each tracked file at /schemas/<name>.schema.json', async () => {
    const paths = getStaticPaths();
    expect(paths.map((p) => `${p.params.name}.json`).sort()).toEqual(RULE_SCHEMAS.map((s) => s.fileName).sort());
    for (const schema of RULE_SCHEMAS) {
      const response = await GET({ params: { name: schema.fileName.replace(/\.json$/, '') } } as unknown as Parameters<typeof GET>[0]);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(await readFile(path.join(ROOT, RULE_SCHEMA_DIR, schema.fileName), 'utf8'));
    }
    const missing = await GET({ params: { name: 'nope.schema' } } as unknown as Parameters<typeof GET>[0]);
    expect(missing.status).toBe(404);
  });

  it('the npm package ships schemas/', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const shipped = (packed?.files ?? []).map((f) => f.path);
    for (const schema of RULE_SCHEMAS) expect(shipped).toContain(`${RULE_SCHEMA_DIR}/${schema.fileName}`);
  });
});
