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
  ValuesFileSchema,
  type BundleFileName,
  type Manifest,
} from '../runtime/bundle/schema.js';
import { TOKENIZER } from '../runtime/search/search-index.js';
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
    problems.push({ severity: 'error', layer: '', file: '', path: '', message: 'no layers given; pass --layer <dir> at least once (e.g. --layer rules/builtin)' });
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
    'documents.json': DocumentsFileSchema.parse({ documents: resolved.documents, ruleOrder: resolved.ruleOrder }),
    'values.json': ValuesFileSchema.parse({ values: resolved.values }),
    'relations.json': RelationsFileSchema.parse({ relations: resolved.relations }),
    'rendering.json': RenderingFileSchema.parse({ rules: resolved.rendering }),
    'search-index.json': SearchIndexFileSchema.parse(searchIndex),
  };
  const files = new Map<BundleFileName | 'manifest.json', string>();
  for (const [name, value] of Object.entries(contents) as [BundleFileName, unknown][]) {
    files.set(name, `${canonicalJson(value)}\n`);
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
