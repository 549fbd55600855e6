/**
 * Reads rule layer folders (rule-format §1.11, ARCHITECTURE §3) into parsed, shape-checked input.
 * Every problem is collected; nothing here throws for bad input.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { canonicalJson, sha256Hex } from '../runtime/bundle/canonical-json.js';
import { describeIssue, formatJsonPath } from '../runtime/bundle/format-issues.js';
import type { SourceCategory } from '../runtime/bundle/schema.js';
import {
  AnnotationsFileInputSchema,
  LayerManifestInputSchema,
  ListsFileInputSchema,
  RenderingFileInputSchema,
  type FieldInput,
  type RelationInput,
  type RenderingRuleInput,
  type RuleInput,
} from './input-schema.js';
import { normalizeKeyCase } from './normalize-key-case.js';
import { JsonSyntaxError, parseJsonDocument, type JsonDocument } from './parse-json-document.js';
import type { Problem } from './problems.js';

export interface SourceItem<T> {
  input: T;
  /** File name inside the layer. */
  file: string;
  /** JSON path inside that file, e.g. `$.rules[3]`. */
  path: string;
  /** The definition as parsed, keys in their canonical case (before legacy-image migration). */
  raw: unknown;
}

export interface DefinitionItem<T> extends SourceItem<T> {
  /** The enum `values` map in source order, or null when absent. */
  values: [string, string][] | null;
  /** The `sentinels` map (pvfdoc extension) in source order, or null when absent. */
  sentinels: [string, string][] | null;
}

export interface RelationItem extends SourceItem<RelationInput> {
  name: string;
  contextPaths: [string, string][] | null;
}

export interface LoadedLayer {
  index: number;
  /** The folder as the user gave it; used only in messages, never stored in a bundle. */
  dir: string;
  name: string;
  kind: SourceCategory;
  description: string;
  pvfVersions: string[];
  disable: string[];
  rules: DefinitionItem<RuleInput>[];
  fields: DefinitionItem<FieldInput>[];
  relations: RelationItem[];
  rendering: SourceItem<RenderingRuleInput>[];
  contentHash: string;
}

export const LAYER_FILES = {
  manifest: 'layer.json',
  annotations: 'annotations.json',
  /** pvfdoc extension: more pvfine rule documents, read in name order before annotations.json. */
  annotationsFolder: 'annotations',
  lists: 'lists.json',
  rendering: 'rendering.json',
} as const;

export async function loadLayers(dirs: readonly string[]): Promise<{ layers: LoadedLayer[]; problems: Problem[] }> {
  const problems: Problem[] = [];
  const layers: LoadedLayer[] = [];
  const seenDirs = new Map<string, string>();
  const seenNames = new Map<string, string>();
  for (const [index, dir] of dirs.entries()) {
    const resolved = path.resolve(dir);
    const previous = seenDirs.get(resolved);
    if (previous !== undefined) {
      problems.push(err(dir, '', '', `this folder is given twice (also as ${previous}); give each layer once`));
      continue;
    }
    seenDirs.set(resolved, dir);
    const layer = await loadLayer(dir, index, problems);
    if (!layer) continue;
    const sameName = seenNames.get(layer.name);
    if (sameName !== undefined) {
      problems.push(
        err(layer.name, LAYER_FILES.manifest, '$.name', `layer name "${layer.name}" is already used by ${sameName}; give each layer a unique name`),
      );
      continue;
    }
    seenNames.set(layer.name, dir);
    layers.push(layer);
  }
  return { layers, problems };
}

function err(layer: string, file: string, jsonPath: string, message: string): Problem {
  return { severity: 'error', layer, file, path: jsonPath, message };
}

async function loadLayer(dir: string, index: number, problems: Problem[]): Promise<LoadedLayer | null> {
  let info;
  try {
    info = await stat(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    problems.push(
      err(dir, '', '', code === 'ENOENT' ? `layer folder does not exist (looked at ${path.resolve(dir)}); check the --layer path` : `layer folder cannot be read (${code ?? String(cause)})`),
    );
    return null;
  }
  if (!info.isDirectory()) {
    problems.push(err(dir, '', '', 'is a file, not a layer folder; --layer takes a folder holding layer.json'));
    return null;
  }

  const manifestDoc = await readJson(dir, LAYER_FILES.manifest, dir, problems, true);
  if (!manifestDoc) return null;
  const manifest = checkShape(manifestDoc, LayerManifestInputSchema, dir, LAYER_FILES.manifest, problems);
  if (!manifest) return null;
  const name = manifest.name.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    problems.push(
      err(dir, LAYER_FILES.manifest, '$.name', `layer name "${manifest.name}" must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit`),
    );
    return null;
  }
  let kind: SourceCategory = 'unknown';
  if (manifest.kind === 'builtin' || manifest.kind === 'user') kind = manifest.kind;
  else if (manifest.kind !== undefined) {
    problems.push({
      severity: 'warning',
      layer: name,
      file: LAYER_FILES.manifest,
      path: '$.kind',
      message: `kind "${manifest.kind}" is not "builtin" or "user"; its definitions are reported with source "unknown"`,
    });
  }

  const layer: LoadedLayer = {
    index,
    dir,
    name,
    kind,
    description: manifest.description ?? '',
    pvfVersions: manifest.pvfVersions ?? [],
    disable: manifest.disable ?? [],
    rules: [],
    fields: [],
    relations: [],
    rendering: [],
    contentHash: '',
  };

  const problemsBefore = problems.length;
  const annotationsDoc = await readJson(dir, LAYER_FILES.annotations, name, problems, false);
  const partFiles = await listAnnotationParts(dir, name, problems);
  const partDocs: [string, JsonDocument][] = [];
  for (const file of partFiles) {
    const doc = await readJson(dir, file, name, problems, false);
    if (doc) partDocs.push([file, doc]);
  }
  const listsDoc = await readJson(dir, LAYER_FILES.lists, name, problems, false);
  const renderingDoc = await readJson(dir, LAYER_FILES.rendering, name, problems, false);
  // A file that is there but cannot be read or parsed has its own message already.
  if (annotationsDoc === undefined && partFiles.length === 0 && listsDoc === undefined && renderingDoc === undefined && problems.length === problemsBefore) {
    problems.push(err(name, '', '', 'holds none of annotations.json, annotations/*.json, lists.json, rendering.json; add at least one'));
  }

  // The parts come first: they usually hold one file type each, and a type's own rules should win a
  // shared span over the rules for any file that annotations.json usually holds.
  for (const [file, partDoc] of partDocs) {
    const doc = readAnnotations(partDoc, file, layer, problems);
    if (doc?.relations) {
      problems.push(err(name, file, '$.relations', 'relations belong in lists.json (or annotations.json); move them there'));
    }
  }
  if (annotationsDoc) {
    const doc = readAnnotations(annotationsDoc, LAYER_FILES.annotations, layer, problems);
    // pvfine: a sibling lists.json replaces the document's own relations (rule-format §1.11).
    if (doc && !listsDoc && doc.relations) {
      layer.relations = relationItems(doc.relations, LAYER_FILES.annotations, annotationsDoc);
    }
  }
  if (listsDoc) {
    const doc = checkShape(listsDoc, ListsFileInputSchema, name, LAYER_FILES.lists, problems);
    if (doc) {
      checkVersion(doc.version, name, LAYER_FILES.lists, problems);
      layer.relations = relationItems(doc.relations ?? {}, LAYER_FILES.lists, listsDoc);
    }
  }
  if (renderingDoc) {
    const doc = checkShape(renderingDoc, RenderingFileInputSchema, name, LAYER_FILES.rendering, problems);
    if (doc) {
      checkVersion(doc.version, name, LAYER_FILES.rendering, problems);
      const rawRules = arrayAt(renderingDoc.value, 'rules');
      layer.rendering = (doc.rules ?? []).map((input, i) => ({
        input,
        file: LAYER_FILES.rendering,
        path: `$.rules[${i}]`,
        raw: rawRules[i],
      }));
    }
  }
  layer.contentHash = sha256Hex(
    canonicalJson({
      name: layer.name,
      kind: layer.kind,
      description: layer.description,
      pvfVersions: layer.pvfVersions,
      disable: layer.disable,
      rules: layer.rules.map((r) => [r.raw, r.values, r.sentinels]),
      fields: layer.fields.map((f) => [f.raw, f.values, f.sentinels]),
      relations: layer.relations.map((r) => [r.name, r.raw, r.contextPaths]),
      rendering: layer.rendering.map((r) => r.raw),
    }),
  );
  return layer;
}

/** Parses one rule document and appends its rules and fields to the layer, in document order. */
function readAnnotations(source: JsonDocument, file: string, layer: LoadedLayer, problems: Problem[]) {
  const doc = checkShape(source, AnnotationsFileInputSchema, layer.name, file, problems);
  if (!doc) return undefined;
  checkVersion(doc.version, layer.name, file, problems);
  const rawRules = arrayAt(source.value, 'rules');
  const rawFields = arrayAt(source.value, 'fields');
  for (const [i, input] of (doc.rules ?? []).entries()) {
    layer.rules.push(definitionItem(input, file, `$.rules[${i}]`, rawRules[i], source));
  }
  for (const [i, input] of (doc.fields ?? []).entries()) {
    layer.fields.push(definitionItem(input, file, `$.fields[${i}]`, rawFields[i], source));
  }
  return doc;
}

/**
 * The `annotations/*.json` files of a layer, as layer-relative paths with "/" in code-point order of
 * their names, so that rule order (= priority) is the same on every platform.
 */
async function listAnnotationParts(dir: string, layerName: string, problems: Problem[]): Promise<string[]> {
  let names: string[];
  try {
    const entries = await readdir(path.join(dir, LAYER_FILES.annotationsFolder), { withFileTypes: true });
    names = entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json')).map((e) => e.name);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      problems.push(err(layerName, LAYER_FILES.annotationsFolder, '', `cannot be read (${code ?? String(cause)})`));
    }
    return [];
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((n) => `${LAYER_FILES.annotationsFolder}/${n}`);
}

function definitionItem<T extends RuleInput | FieldInput>(
  input: T,
  file: string,
  jsonPath: string,
  raw: unknown,
  doc: JsonDocument,
): DefinitionItem<T> {
  const rawValues = objectAt(objectAt(raw, 'annotation'), 'values');
  const rawSentinels = objectAt(objectAt(raw, 'annotation'), 'sentinels');
  migrateLegacyImage(input);
  return {
    input,
    file,
    path: jsonPath,
    raw,
    values: rawValues ? doc.entriesOf(rawValues).map(([k, v]) => [k, String(v)]) : null,
    // Kept in source order like values: JavaScript objects would move "1", "10" before "-1".
    sentinels: rawSentinels ? doc.entriesOf(rawSentinels).map(([k, v]) => [k, String(v)]) : null,
  };
}

/**
 * pvfine's legacy image form (rule-format §1.5): `imageIndexToken` plus `index` meant (index token,
 * path token); it is rewritten to `index` + `imagePathToken` and never emitted again.
 */
function migrateLegacyImage(input: RuleInput | FieldInput): void {
  const target = input.target;
  if (!target) return;
  if (input.annotation?.type === 'image' && target.imageIndexToken !== undefined && target.imagePathToken === undefined) {
    if (target.index !== undefined) target.imagePathToken = target.index;
    target.index = target.imageIndexToken;
  }
  delete target.imageIndexToken;
}

function relationItems(relations: Record<string, RelationInput>, file: string, doc: JsonDocument): RelationItem[] {
  const rawRelations = objectAt(doc.value, 'relations');
  const order = rawRelations ? doc.entriesOf(rawRelations).map(([k]) => k) : Object.keys(relations);
  return order.map((name) => {
    const raw = rawRelations?.[name];
    const rawContext = objectAt(raw, 'contextPaths');
    return {
      name,
      input: relations[name] as RelationInput,
      file,
      path: `$.relations[${JSON.stringify(name)}]`,
      raw,
      contextPaths: rawContext ? doc.entriesOf(rawContext).map(([k, v]) => [k, String(v)]) : null,
    };
  });
}

async function readJson(
  dir: string,
  file: string,
  layerName: string,
  problems: Problem[],
  required: boolean,
): Promise<JsonDocument | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path.join(dir, file));
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (required) {
        problems.push(
          err(layerName, file, '', 'is missing; every layer folder needs a layer.json such as {"name": "user", "kind": "user"}'),
        );
      }
    } else {
      problems.push(err(layerName, file, '', `cannot be read (${code ?? String(cause)})`));
    }
    return undefined;
  }
  const invalidAt = firstInvalidUtf8(bytes);
  if (invalidAt !== -1) {
    problems.push(err(layerName, file, '', `is not valid UTF-8 (byte offset ${invalidAt}, 0x${(bytes[invalidAt] ?? 0).toString(16).padStart(2, '0')}): save it as UTF-8`));
    return undefined;
  }
  const text = bytes.toString('utf8');
  try {
    const doc = parseJsonDocument(text);
    for (const dup of doc.duplicateKeys) {
      problems.push(err(layerName, file, dup.path, `key "${dup.key}" appears twice in one object; keep one`));
    }
    return doc;
  } catch (cause) {
    const message = cause instanceof JsonSyntaxError ? cause.message : String(cause);
    problems.push(err(layerName, file, '', `is not valid JSON: ${message}`));
    return undefined;
  }
}

/** Unknown keys are an error, not a warning, because pvfine itself refuses such a file. */
const PVFINE_UNKNOWN_KEY_ADVICE = 'pvfine rule files allow no other keys here; remove it or fix its spelling';

function checkShape<T>(
  doc: JsonDocument,
  schema: z.ZodType<T>,
  layerName: string,
  file: string,
  problems: Problem[],
): T | undefined {
  normalizeKeyCase(doc.value, schema, '$', (jsonPath, message) =>
    problems.push({ severity: 'warning', layer: layerName, file, path: jsonPath, message }),
  );
  const result = schema.safeParse(doc.value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    problems.push(err(layerName, file, formatJsonPath(issue.path), describeIssue(issue, PVFINE_UNKNOWN_KEY_ADVICE)));
  }
  return undefined;
}

function checkVersion(version: number, layerName: string, file: string, problems: Problem[]): void {
  if (version !== 1) problems.push(err(layerName, file, '$.version', `version 必须为 1，当前为 ${version}: set "version": 1`));
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const member = (value as Record<string, unknown>)[key];
  return member !== null && typeof member === 'object' && !Array.isArray(member) ? (member as Record<string, unknown>) : undefined;
}

function arrayAt(value: unknown, key: string): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  const member = (value as Record<string, unknown>)[key];
  return Array.isArray(member) ? member : [];
}

/**
 * Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. Node's decoder
 * would replace it with U+FFFD silently, and a label would change without anyone noticing.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}
