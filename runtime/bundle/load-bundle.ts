/**
 * Reads a snapshot bundle: checks the schema version and tokenizer first (so an old or foreign bundle
 * fails with a clear message), then every file's hash, and the shape of every file but the large ones.
 *
 * What is read when (a read from disk; an in-memory bundle parses its documents at once):
 * - at load: every hash, manifest.json, relations.json, rendering.json, search-index.json (shape and
 *   postings), and that the index lists the documentIds of documents.json in order (found in its bytes);
 * - on first use of the documents (any of documents, documentsById, positionById, ruleOrder,
 *   searchTexts): documents.json is parsed and checked against its schema, and the index order again;
 * - on first use of a `raw` (pvf_annotation_get, diffs, the site): every raw definition, which the
 *   documents step cut out of the text unparsed;
 * - on first valuesOf: values.json.
 * A damaged file is always refused with INVALID_BUNDLE naming it, at the step that reads it; hashes are
 * checked at load, so a file changed on disk is refused at load. A hot reload reads the documents and
 * values before it swaps (watch-current.ts), so it refuses those as before.
 *
 * `openSearchBundle` opens only what search reads, with documents from elsewhere: the site's light
 * search, which never fetches documents.json (docs/site.md, *Search*).
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
  isJsonValue,
  ManifestSchema,
  RelationsFileSchema,
  RenderingFileSchema,
  SCHEMA_VERSION,
  SearchIndexFileSchema,
  ValuesFileSchema,
  type BundleDocument,
  type BundleFileName,
  type BundleRelation,
  type JsonValue,
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
  const { manifest, checkedData, parse } = openFiles(readBundleFile);
  const relationsFile = parse('relations.json', RelationsFileSchema);
  const renderingFile = parse('rendering.json', RenderingFileSchema);
  const { ids, searchIndex, indexError } = openIndex(parse);

  // Dropped once the documents are read: the bundle then holds no copy of the file.
  let documentsData: string | Uint8Array | null = checkedData('documents.json');
  const readDocuments = (data: string | Uint8Array): DocumentsBody => {
    const body = parseDocuments(data, (text) => parse('documents.json', DocumentsFileSchema, text));
    const { documents } = body;
    if (ids.length !== documents.length || documents.some((d, i) => d.documentId !== ids[i])) {
      throw indexError('its documentIds do not list the documents of documents.json in order');
    }
    return body;
  };
  let body: DocumentsBody | PvfdocError | undefined;
  const documentsBody = (): DocumentsBody => {
    if (body === undefined) {
      try {
        body = readDocuments(documentsData ?? '');
      } catch (error) {
        // Kept: every later use fails the same way, and nothing parses the file again.
        if (!(error instanceof PvfdocError)) throw error;
        body = error;
      }
      documentsData = null;
    }
    if (body instanceof PvfdocError) throw body;
    return body;
  };
  // In memory (a build) the documents are parsed now. From disk, only the ids
  // are looked up in the bytes, so a bundle whose index does not follow its documents is still refused
  // at load; when they do not match (or cannot be found that way), the documents are read now too.
  if (typeof documentsData === 'string' || !sameIds(storedDocumentIds(documentsData), ids)) {
    documentsBody();
  }

  const valuesOf = openValues(checkedData, parse);
  let searchTexts: SearchTexts | undefined;
  return {
    dir,
    manifest,
    rulesRevision: manifest.rulesRevision,
    get documents() {
      return documentsBody().documents;
    },
    get documentsById() {
      return documentsBody().documentsById;
    },
    get positionById() {
      return documentsBody().positionById;
    },
    get ruleOrder() {
      return documentsBody().ruleOrder;
    },
    relations: relationsFile.relations,
    relationsByName: new Map(relationsFile.relations.map((r) => [r.name, r])),
    rendering: renderingFile.rules,
    searchIndex,
    get searchTexts() {
      searchTexts ??= new SearchTexts(documentsBody().documents, valuesOf);
      return searchTexts;
    },
    valuesOf,
  };
}

/**
 * Opens the part of a bundle that search reads, with documents the caller brings: the site's light
 * search builds them from its search head (title, filters, status; content fetched in shards later),
 * so the browser never fetches documents.json or rendering.json. manifest.json, relations.json,
 * search-index.json and values.json are read and checked as by `openBundle`; `documentsOf` gets the
 * index's documentIds and must return the documents in that order. `ruleOrder` and `rendering` are not part of it and throw when read.
 * The search texts read each document's content only when a search looks at it (search-text.ts).
 */
export function openSearchBundle(
  readBundleFile: (name: SearchBundleFileName) => string | Uint8Array,
  documentsOf: (documentIds: readonly string[]) => BundleDocument[],
): Bundle {
  const { manifest, checkedData, parse } = openFiles(readBundleFile as BundleFileReader);
  const relationsFile = parse('relations.json', RelationsFileSchema);
  const { ids, searchIndex, indexError } = openIndex(parse);
  const documents = documentsOf(ids);
  if (ids.length !== documents.length || documents.some((d, i) => d.documentId !== ids[i])) {
    throw indexError('its documentIds do not list the documents given to the search bundle in order');
  }
  const valuesOf = openValues(checkedData, parse);
  const positionById = new Map<string, number>();
  const documentsById = new Map<string, BundleDocument>();
  documents.forEach((d, i) => {
    positionById.set(d.documentId, i);
    documentsById.set(d.documentId, d);
  });
  const notHere = (what: string) =>
    new PvfdocError('INVALID_BUNDLE', `${what} is not part of a search bundle (openSearchBundle)`, { hint: 'Open the whole bundle with loadBundle or openBundle.' });
  let searchTexts: SearchTexts | undefined;
  return {
    dir: '',
    manifest,
    rulesRevision: manifest.rulesRevision,
    documents,
    documentsById,
    positionById,
    get ruleOrder(): Record<string, string[]> {
      throw notHere('ruleOrder (documents.json)');
    },
    relations: relationsFile.relations,
    relationsByName: new Map(relationsFile.relations.map((r) => [r.name, r])),
    get rendering(): RenderingRule[] {
      throw notHere('rendering.json');
    },
    searchIndex,
    get searchTexts() {
      searchTexts ??= new SearchTexts(documents, valuesOf, { deferredContent: true });
      return searchTexts;
    },
    valuesOf,
  };
}

/** The files `openSearchBundle` reads. */
export const SEARCH_BUNDLE_FILES = [MANIFEST_FILE, 'relations.json', 'search-index.json', 'values.json'] as const;
export type SearchBundleFileName = (typeof SEARCH_BUNDLE_FILES)[number];

type ParseBundleFile = <T>(name: BundleFileName, schema: z.ZodType<T>, text?: string) => T;

/** The manifest (schema version and tokenizer checked first), and readers that check each file's hash and schema. */
function openFiles(readBundleFile: BundleFileReader): { manifest: Manifest; checkedData: (name: BundleFileName) => string | Uint8Array; parse: ParseBundleFile } {
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
  return { manifest, checkedData, parse };
}

/** search-index.json: its document ids and the loaded postings. */
function openIndex(parse: ParseBundleFile): { ids: string[]; searchIndex: SearchIndex; indexError: (message: string, cause?: unknown) => PvfdocError } {
  const indexFile = parse('search-index.json', SearchIndexFileSchema);
  const indexError = (message: string, cause?: unknown) =>
    new PvfdocError('INVALID_BUNDLE', `search-index.json cannot be loaded: ${message}`, { data: { file: 'search-index.json' }, cause });
  const ids = indexFile.documentIds;
  try {
    if (indexFile.tokenizer.id !== TOKENIZER.id || indexFile.tokenizer.version !== TOKENIZER.version) {
      throw new Error(`its tokenizer ${indexFile.tokenizer.id}@${indexFile.tokenizer.version} differs from the manifest's`);
    }
    return { ids, searchIndex: loadSearchIndex(indexFile.terms, ids.length), indexError };
  } catch (cause) {
    throw indexError((cause as Error).message, cause);
  }
}

/**
 * valuesOf over values.json. The file is parsed on first use, but its hash is checked now: a damaged
 * bundle is refused at load (and by a hot reload), never in the middle of a request.
 */
function openValues(checkedData: (name: BundleFileName) => string | Uint8Array, parse: ParseBundleFile): Bundle['valuesOf'] {
  const valuesData = checkedData('values.json');
  let values: Record<string, [string, string][]> | undefined;
  return (documentId) => {
    values ??= parse('values.json', ValuesFileSchema, asText(valuesData)).values;
    return values[documentId] ?? [];
  };
}

/** What documents.json holds, as the bundle serves it. */
interface DocumentsBody {
  documents: BundleDocument[];
  documentsById: Map<string, BundleDocument>;
  positionById: Map<string, number>;
  ruleOrder: Record<string, string[]>;
}

type DocumentsFile = z.output<typeof DocumentsFileSchema>;

/**
 * Parses documents.json. From bytes, the raw definitions are cut out first and parsed only when a
 * document's `raw` is first read: they are a quarter of the bytes and only get and diffs read them.
 * Whenever the cut text does not parse, check or line up exactly, the whole file is parsed instead, so a
 * damaged file gets the same error either way.
 */
function parseDocuments(data: string | Uint8Array, parseFile: (text: string) => DocumentsFile): DocumentsBody {
  const cut = typeof data === 'string' ? null : cutRawDefinitions(data);
  if (cut !== null) {
    let file: DocumentsFile | null = null;
    try {
      file = parseFile(asText(cut.rest));
    } catch {
      file = null;
    }
    // Each document's raw must be the number of its own cut: then every cut was a document's raw.
    if (file !== null && file.documents.length === cut.count && file.documents.every((d, i) => d.raw === i)) {
      return indexDocuments(file, lazyRawDefinitions(cut.raws, cut.count));
    }
  }
  return indexDocuments(parseFile(asText(data)));
}

function indexDocuments(file: DocumentsFile, raws?: () => readonly JsonValue[]): DocumentsBody {
  const positionById = new Map<string, number>();
  file.documents.forEach((d, i) => positionById.set(d.documentId, i));
  // One getter for every document (see fromStoredDocument), finding the document's raw by its position.
  const rawGetter =
    raws &&
    function (this: BundleDocument): JsonValue {
      return raws()[positionById.get(this.documentId) ?? -1] ?? null;
    };
  const documents = file.documents.map((d) => fromStoredDocument(d, rawGetter));
  const documentsById = new Map<string, BundleDocument>();
  for (const doc of documents) documentsById.set(doc.documentId, doc);
  return { documents, documentsById, positionById, ruleOrder: file.ruleOrder };
}

/** The raw definitions, parsed and checked together on first use; an error is kept and thrown again. */
function lazyRawDefinitions(bytes: Uint8Array, count: number): () => readonly JsonValue[] {
  let parsed: readonly JsonValue[] | PvfdocError | undefined;
  return () => {
    parsed ??= parseRawDefinitions(bytes, count);
    if (parsed instanceof PvfdocError) throw parsed;
    return parsed;
  };
}

function parseRawDefinitions(bytes: Uint8Array, count: number): readonly JsonValue[] | PvfdocError {
  let list: unknown;
  try {
    list = JSON.parse(asText(bytes));
  } catch (cause) {
    return new PvfdocError('INVALID_BUNDLE', 'bundle file documents.json is not valid JSON (in a raw definition)', { data: { file: 'documents.json' }, cause });
  }
  if (!Array.isArray(list) || list.length !== count || !list.every(isJsonValue)) {
    return new PvfdocError('INVALID_BUNDLE', `bundle file documents.json does not match bundle schema ${SCHEMA_VERSION}: a raw definition is not a JSON value`, {
      data: { file: 'documents.json' },
    });
  }
  return list as JsonValue[];
}

/**
 * documents.json with the value of every `"raw":` key after a comma replaced by its number (0, 1, …),
 * and those values as one JSON array `[raw0,raw1,…]`, both still bytes. In JSON text such a key can
 * only be a real key (a quote inside a string is always escaped), and each value is skipped as a whole;
 * parseDocuments checks that exactly the documents' raws were cut. Null when a value does not end.
 */
function cutRawDefinitions(bytes: Uint8Array): { rest: Uint8Array; raws: Uint8Array; count: number } | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = Buffer.from(',"raw":');
  const rest: Uint8Array[] = [];
  const raws: Uint8Array[] = [Buffer.from('[')];
  let count = 0;
  let from = 0;
  for (let at = buffer.indexOf(key, 0); at >= 0; at = buffer.indexOf(key, from)) {
    const start = at + key.length;
    const end = endOfValue(bytes, start);
    if (end < 0) return null;
    rest.push(bytes.subarray(from, start), Buffer.from(String(count)));
    if (count > 0) raws.push(Buffer.from(','));
    raws.push(bytes.subarray(start, end));
    count++;
    from = end;
  }
  rest.push(bytes.subarray(from));
  raws.push(Buffer.from(']'));
  return { rest: Buffer.concat(rest), raws: Buffer.concat(raws), count };
}

/** Where the JSON value starting at `start` ends (exclusive), or -1; only its brackets and strings matter. */
function endOfValue(bytes: Uint8Array, start: number): number {
  let depth = 0;
  let inString = false;
  for (let p = start; p < bytes.length; p++) {
    const c = bytes[p];
    if (inString) {
      if (c === 0x5c) p++;
      else if (c === 0x22) {
        inString = false;
        if (depth === 0) return p + 1;
      }
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return p === start ? -1 : p;
      if (--depth === 0) return p + 1;
    } else if (c === 0x2c && depth === 0) return p === start ? -1 : p;
  }
  return -1;
}

/** Every `"documentId":"…"` value in the bytes, in order: the load-time stand-in for parsing the documents. */
function storedDocumentIds(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = Buffer.from('"documentId":"');
  const ids: string[] = [];
  for (let at = buffer.indexOf(key, 0); at >= 0; ) {
    const start = at + key.length;
    const end = buffer.indexOf(0x22, start);
    if (end < 0) break;
    ids.push(buffer.toString('utf8', start, end));
    at = buffer.indexOf(key, end);
  }
  return ids;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
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
