/**
 * load → validate → resolve → index → bundle, in memory. Writing to disk is write-bundle.ts; diffs
 * compile layers in memory through this same function.
 */
import { canonicalJson, sha256Hex } from '../runtime/bundle/canonical-json.js';
import { ENGINE_NAME, ENGINE_VERSION, UNKNOWN_VERSION } from '../runtime/bundle/constants.js';
import {
  DocumentsFileSchema,
  ManifestSchema,
  RelationsFileSchema,
  RenderingFileSchema,
  SCHEMA_VERSION,
  SearchIndexFileSchema,
  toStoredDocument,
  ValuesFileSchema,
  type BundleFileName,
  type Manifest,
} from '../runtime/bundle/schema.js';
import { TOKENIZER } from '../runtime/bundle/search-index.js';
import { indexSearch } from './index-search.js';
import { loadLayers, type LoadedLayer } from './load-layers.js';
import { hasErrors, type Problem } from './problems.js';
import { resolveLayers } from './resolve-layers.js';
import { validateLayers } from './validate-layers.js';

export interface BuiltBundle {
  rulesRevision: string;
  manifest: Manifest;
  /** File name → exact bytes to write (canonical JSON plus a newline). */
  files: Map<BundleFileName | 'manifest.json', string>;
}

export type CompileResult =
  | { ok: true; bundle: BuiltBundle; problems: Problem[] }
  | { ok: false; problems: Problem[] };

export async function compileLayers(dirs: readonly string[]): Promise<CompileResult> {
  const { layers, problems } = await loadLayers(dirs);
  if (dirs.length === 0) {
    problems.push({ severity: 'error', layer: '', file: '', path: '', message: 'no layers given; drop --no-builtin to use the builtin layer, or pass --layer <dir> at least once' });
  }
  if (hasErrors(problems)) return { ok: false, problems };
  problems.push(...validateLayers(layers));
  if (hasErrors(problems)) return { ok: false, problems };
  return { ok: true, bundle: bundleLayers(layers), problems };
}

export function bundleLayers(layers: readonly LoadedLayer[]): BuiltBundle {
  const resolved = resolveLayers(layers);
  const searchIndex = indexSearch(resolved.documents, resolved.values);
  const contents: Record<BundleFileName, unknown> = {
    'documents.json': DocumentsFileSchema.parse({ documents: resolved.documents.map(toStoredDocument), ruleOrder: resolved.ruleOrder }),
    'values.json': ValuesFileSchema.parse({ values: resolved.values }),
    'relations.json': RelationsFileSchema.parse({ relations: resolved.relations }),
    'rendering.json': RenderingFileSchema.parse({ rules: resolved.rendering }),
    'search-index.json': SearchIndexFileSchema.parse(searchIndex),
  };
  const files = new Map<BundleFileName | 'manifest.json', string>();
  for (const [name, value] of Object.entries(contents) as [BundleFileName, unknown][]) {
    files.set(name, `${toCanonicalJson(value)}\n`);
  }

  const effectiveByVersion: Record<string, number> = {};
  for (const v of [UNKNOWN_VERSION, ...resolved.pvfVersions]) {
    effectiveByVersion[v] = resolved.documents.filter((d) => d.versions[v]?.effective).length;
  }
  const withoutRevision = {
    schemaVersion: SCHEMA_VERSION,
    tokenizer: TOKENIZER,
    layers: layers.map((l) => ({
      name: l.name,
      kind: l.kind,
      description: l.description,
      contentHash: l.contentHash,
      pvfVersions: l.pvfVersions,
      disable: l.disable,
      counts: { rules: l.rules.length, fields: l.fields.length, relations: l.relations.length, renderingRules: l.rendering.length },
    })),
    pvfVersions: resolved.pvfVersions,
    counts: {
      documents: resolved.documents.length,
      rules: resolved.documents.filter((d) => d.kind === 'rule' && d.origin === 'configured').length,
      fields: resolved.documents.filter((d) => d.kind === 'field').length,
      generatedRules: resolved.documents.filter((d) => d.origin === 'generated').length,
      relations: resolved.relations.length,
      renderingRules: resolved.rendering.length,
      enumValues: Object.values(resolved.values).reduce((n, list) => n + list.length, 0),
      effectiveByVersion,
    },
    files: [...files].map(([name, text]) => ({ name, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) })),
  };
  // The revision covers everything a client can observe except the compiler's own version.
  const rulesRevision = sha256Hex(canonicalJson(withoutRevision)).slice(0, 20);
  const manifest = ManifestSchema.parse({ ...withoutRevision, rulesRevision, engine: { name: ENGINE_NAME, version: ENGINE_VERSION } });
  files.set('manifest.json', `${canonicalJson(manifest)}\n`);
  return { rulesRevision, manifest, files };
}

/**
 * `canonicalJson(value)`, computed faster: a copy of the value with every object's keys inserted in
 * sorted order goes through the native `JSON.stringify`, which then writes them in that order. That
 * holds only when no key is an array index ("0", "17": `JSON.stringify` writes those first, in numeric
 * order) and the value holds nothing but plain JSON, so anything else (such as the digit bigrams of
 * search-index.json, or a value canonicalJson rejects) takes canonicalJson itself. Same bytes either
 * way; test/build/canonical-json.test.ts compares the two.
 */
export function toCanonicalJson(value: unknown): string {
  const copy = sortedCopy(value);
  return copy === NOT_PLAIN ? canonicalJson(value) : JSON.stringify(copy);
}

const NOT_PLAIN = Symbol('not plain JSON');
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : NOT_PLAIN;
  if (typeof value !== 'object') return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return NOT_PLAIN;
      const item = sortedCopy(value[i]);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    if (key === '__proto__' || (ARRAY_INDEX.test(key) && Number(key) < 4294967295)) return NOT_PLAIN;
    const member = record[key];
    if (member === undefined) continue;
    const copy = sortedCopy(member);
    if (copy === NOT_PLAIN) return NOT_PLAIN;
    out[key] = copy;
  }
  return out;
}
