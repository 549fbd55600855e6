/**
 * Reads a snapshot bundle: checks the schema version and tokenizer first (so an old or foreign bundle
 * fails with a clear message), then every file's hash and shape. Values are parsed on first use.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { PvfdocError } from '../errors.js';
import { loadSearchIndex, TOKENIZER, type SearchIndex } from './search-index.js';
import { SearchTexts } from './search-text.js';
import { sha256Hex } from './canonical-json.js';
import { CURRENT_POINTER, MANIFEST_FILE } from './constants.js';
import { formatIssues } from './format-issues.js';
import {
  BUNDLE_FILES,
  DocumentsFileSchema,
  fromStoredDocument,
  ManifestSchema,
  RelationsFileSchema,
  RenderingFileSchema,
  SCHEMA_VERSION,
  SearchIndexFileSchema,
  ValuesFileSchema,
  type BundleDocument,
  type BundleFileName,
  type BundleRelation,
  type Manifest,
  type RenderingRule,
} from './schema.js';

export interface Bundle {
  /** Folder it was read from, or "" for a bundle held in memory. */
  dir: string;
  manifest: Manifest;
  rulesRevision: string;
  documents: BundleDocument[];
  documentsById: Map<string, BundleDocument>;
  /** Position of each document in `documents` (the search index's internal id). */
  positionById: Map<string, number>;
  ruleOrder: Record<string, string[]>;
  relations: BundleRelation[];
  relationsByName: Map<string, BundleRelation>;
  rendering: RenderingRule[];
  /** Bigram postings that propose search candidates (runtime/bundle/search-index.ts). */
  searchIndex: SearchIndex;
  /** Lower-cased searchable text and ranking order, built on the first search. */
  searchTexts: SearchTexts;
  /** Enum values of a document in source order ([] when it has none). */
  valuesOf(documentId: string): readonly (readonly [string, string])[];
}

/** A bundle file's bytes (as read from disk) or text (as built in memory). */
type BundleFileReader = (name: BundleFileName | typeof MANIFEST_FILE) => string | Uint8Array;

/** Reads `dir/current` and returns the bundle folder it names. */
export async function resolveCurrentBundleDir(snapshotsDir: string): Promise<string> {
  const pointer = path.join(snapshotsDir, CURRENT_POINTER);
  let revision: string;
  try {
    revision = (await readFile(pointer, 'utf8')).trim();
  } catch (cause) {
    throw new PvfdocError('INVALID_BUNDLE', `no current snapshot: ${pointer} cannot be read`, {
      hint: 'Build one first with "npx pvfdoc build" (add --layer <dir> for your own rules), or leave the snapshot option out to use the builtin rules.',
      data: { file: pointer },
      cause,
    });
  }
  if (!/^[0-9a-f]{8,64}$/.test(revision)) {
    throw new PvfdocError('INVALID_BUNDLE', `${pointer} does not hold a snapshot revision`, {
      hint: 'Rebuild with npx pvfdoc build, which rewrites it.',
      data: { file: pointer },
    });
  }
  return path.join(snapshotsDir, revision);
}

export async function loadBundle(dir: string): Promise<Bundle> {
  // Bytes, not text: hashing the bytes as read is several times faster than hashing a decoded string,
  // which has to be encoded to UTF-8 again (and Chinese text makes that encoding slow).
  const texts = new Map<string, Uint8Array>();
  const read = async (name: string) => {
    try {
      texts.set(name, await readFile(path.join(dir, name)));
    } catch (cause) {
      throw new PvfdocError('INVALID_BUNDLE', `bundle file ${path.join(dir, name)} cannot be read`, {
        hint: 'Point at a folder written by pvfdoc build (it holds manifest.json), or rebuild it.',
        data: { file: name },
        cause,
      });
    }
  };
  await read(MANIFEST_FILE);
  await Promise.all(BUNDLE_FILES.map(read));
  return openBundle((name) => {
    const text = texts.get(name);
    if (text !== undefined) return text;
    try {
      return readFileSync(path.join(dir, name));
    } catch (cause) {
      throw new PvfdocError('INVALID_BUNDLE', `bundle file ${path.join(dir, name)} cannot be read`, { data: { file: name }, cause });
    }
  }, dir);
}

/** Opens a bundle from a file reader (disk, or the in-memory output of a build). */
export function openBundle(readBundleFile: BundleFileReader, dir = ''): Bundle {
  const manifest = parseManifest(asText(readBundleFile(MANIFEST_FILE)));
  // Before any file is parsed, so a bundle from another tokenizer gets this message, not a schema error.
  if (manifest.tokenizer.id !== TOKENIZER.id || manifest.tokenizer.version !== TOKENIZER.version) {
    throw new PvfdocError('INVALID_BUNDLE', `search-index.json was built with tokenizer ${manifest.tokenizer.id}@${manifest.tokenizer.version}; this pvfdoc reads ${TOKENIZER.id}@${TOKENIZER.version}`, {
      hint: 'Rebuild the snapshot with this version of pvfdoc.',
      data: { file: 'search-index.json' },
    });
  }
  const hashes = new Map(manifest.files.map((f) => [f.name, f.sha256]));
  const checkedData = (name: BundleFileName): string | Uint8Array => {
    const data = readBundleFile(name);
    const expected = hashes.get(name);
    if (expected === undefined || sha256Hex(data) !== expected) {
      throw new PvfdocError('INVALID_BUNDLE', `bundle file ${name} does not match the hash in manifest.json: the bundle is corrupt`, {
        hint: 'Rebuild the snapshot with pvfdoc build; bundles are never edited by hand.',
        data: { file: name },
      });
    }
    return data;
  };
  const checkedText = (name: BundleFileName): string => asText(checkedData(name));
  const readChecked = (name: BundleFileName, text = checkedText(name)): unknown => {
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new PvfdocError('INVALID_BUNDLE', `bundle file ${name} is not valid JSON`, { data: { file: name }, cause });
    }
  };
  const parse = <T>(name: BundleFileName, schema: z.ZodType<T>, text?: string): T => {
    const result = schema.safeParse(readChecked(name, text));
    if (!result.success) {
      throw new PvfdocError('INVALID_BUNDLE', `bundle file ${name} does not match bundle schema ${SCHEMA_VERSION}: ${formatIssues(result.error.issues)}`, {
        data: { file: name },
      });
    }
    return result.data;
  };

  const docsFile = parse('documents.json', DocumentsFileSchema);
  const documents = docsFile.documents.map(fromStoredDocument);
  const relationsFile = parse('relations.json', RelationsFileSchema);
  const renderingFile = parse('rendering.json', RenderingFileSchema);
  const indexFile = parse('search-index.json', SearchIndexFileSchema);
  let searchIndex: SearchIndex;
  try {
    if (indexFile.tokenizer.id !== TOKENIZER.id || indexFile.tokenizer.version !== TOKENIZER.version) {
      throw new Error(`its tokenizer ${indexFile.tokenizer.id}@${indexFile.tokenizer.version} differs from the manifest's`);
    }
    const ids = indexFile.documentIds;
    if (ids.length !== documents.length || documents.some((d, i) => d.documentId !== ids[i])) {
      throw new Error('its documentIds do not list the documents of documents.json in order');
    }
    searchIndex = loadSearchIndex(indexFile.terms, ids.length);
  } catch (cause) {
    throw new PvfdocError('INVALID_BUNDLE', `search-index.json cannot be loaded: ${(cause as Error).message}`, { data: { file: 'search-index.json' }, cause });
  }

  const documentsById = new Map<string, BundleDocument>();
  const positionById = new Map<string, number>();
  documents.forEach((doc, i) => {
    documentsById.set(doc.documentId, doc);
    positionById.set(doc.documentId, i);
  });
  // values.json is parsed on first use, but its hash is checked now: a damaged bundle is refused at
  // load (and by a hot reload), never in the middle of a request.
  const valuesData = checkedData('values.json');
  let values: Record<string, [string, string][]> | undefined;
  const valuesOf = (documentId: string): readonly (readonly [string, string])[] => {
    values ??= parse('values.json', ValuesFileSchema, asText(valuesData)).values;
    return values[documentId] ?? [];
  };
  return {
    dir,
    manifest,
    rulesRevision: manifest.rulesRevision,
    documents,
    documentsById,
    positionById,
    ruleOrder: docsFile.ruleOrder,
    relations: relationsFile.relations,
    relationsByName: new Map(relationsFile.relations.map((r) => [r.name, r])),
    rendering: renderingFile.rules,
    searchIndex,
    searchTexts: new SearchTexts(documents, valuesOf),
    valuesOf,
  };
}

function asText(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}

function parseManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new PvfdocError('INVALID_BUNDLE', 'manifest.json is not valid JSON', { data: { file: MANIFEST_FILE }, cause });
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw new PvfdocError('INVALID_BUNDLE', `manifest.json has schemaVersion ${JSON.stringify(version ?? null)}; this pvfdoc reads schemaVersion ${SCHEMA_VERSION}`, {
      hint: 'Rebuild the snapshot from its layers with this version of pvfdoc.',
      data: { file: MANIFEST_FILE, schemaVersion: version ?? null, supported: SCHEMA_VERSION },
    });
  }
  const result = ManifestSchema.safeParse(json);
  if (!result.success) {
    throw new PvfdocError('INVALID_BUNDLE', `manifest.json does not match bundle schema ${SCHEMA_VERSION}: ${formatIssues(result.error.issues)}`, {
      data: { file: MANIFEST_FILE },
    });
  }
  return result.data;
}

/** An in-memory bundle from a build, read through the same checks as one on disk. */
export function openBuiltBundle(files: ReadonlyMap<string, string>): Bundle {
  return openBundle((name) => {
    const text = files.get(name);
    if (text === undefined) throw new PvfdocError('INVALID_BUNDLE', `bundle has no ${name}`, { data: { file: name } });
    return text;
  });
}
