/**
 * The light search files of the site (docs/site.md, *Search*), derived from a bundle when the site is
 * built and read by the search page, so the page's first result needs neither documents.json nor
 * rendering.json:
 *
 * - `head.json`: per document, every property search reads except its content and summary, column by
 *   column (a column of few distinct values as a dictionary plus one index per document);
 * - `content-NNNN.json`: the content (and a summary that differs from it) of a run of consecutive
 *   documents, about SHARD_TARGET_BYTES each (fewer, larger ones for a large bundle), fetched only when
 *   a search reads one of them;
 * - `search.json`: the sha256 and size of the bundle's manifest.json, of the head and of every shard.
 *   Its own sha256 is written into the search page and names the folder, so every byte the light search
 *   reads is checked against a hash that comes from the page: search.json by the page, the head and
 *   the shards by search.json, and the bundle's manifest.json (whose hashes check search-index.json,
 *   values.json and relations.json, as in the server) by search.json.
 *
 * The documents built from the head are `BundleDocument`s for `openSearchBundle`: the properties search
 * reads are plain values, content and summary come from a ContentStore, and every other property
 * throws when read, so a search that starts to read one fails loudly instead of seeing undefined.
 */
import { z } from 'zod';
import { sha256Hex } from '../../../runtime/bundle/canonical-json.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { DocumentSchema, ResolvedDefinitionSchema, type BundleDocument } from '../../../runtime/bundle/schema.js';

export const SEARCH_MANIFEST_NAME = 'search.json';
export const SEARCH_HEAD_NAME = 'head.json';
/**
 * A shard is closed once its contents and summaries reach this many UTF-8 bytes, or a bundle's total
 * over MAX_SHARDS when that is more: small shards keep a rare word's fetch small, the cap keeps a common
 * word (whose search reads nearly every content) from costing hundreds of requests.
 */
export const SHARD_TARGET_BYTES = 8 * 1024;
export const MAX_SHARDS = 128;
const FORMAT_VERSION = 1;

/** A failure to read the light search files; the message names the file and what to do. */
export class SearchFilesError extends Error {
  override readonly name = 'SearchFilesError';
}

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);
const FileRefSchema = z.strictObject({ name: z.string().regex(/^[a-z0-9-]+\.json$/), sha256: Sha256Schema, bytes: z.int().nonnegative() });
const ShardRefSchema = FileRefSchema.extend({ first: z.int().nonnegative(), count: z.int().positive() });

export const SearchManifestSchema = z.strictObject({
  format: z.literal('pvfdoc-site-search'),
  version: z.literal(FORMAT_VERSION),
  rulesRevision: z.string(),
  /** sha256 of the bundle's manifest.json, whose file hashes check the bundle files the search reads. */
  bundleManifestSha256: Sha256Schema,
  documents: z.int().nonnegative(),
  head: FileRefSchema,
  /** Consecutive runs of documents, in position order, covering every document once. */
  shards: z.array(ShardRefSchema),
});
export type SearchManifest = z.output<typeof SearchManifestSchema>;
export type ShardRef = z.output<typeof ShardRefSchema>;

const { target: TargetShape, annotation: AnnotationShape } = ResolvedDefinitionSchema.shape;

/** The head's columns: how each is read from a full document, and the schema its values are checked with. */
const COLUMNS = {
  kind: [(d) => d.kind, DocumentSchema.shape.kind],
  id: [(d) => d.id, DocumentSchema.shape.id],
  origin: [(d) => d.origin, DocumentSchema.shape.origin],
  layer: [(d) => d.layer, DocumentSchema.shape.layer],
  layerIndex: [(d) => d.layerIndex, DocumentSchema.shape.layerIndex],
  source: [(d) => d.source, DocumentSchema.shape.source],
  fieldId: [(d) => d.fieldId, DocumentSchema.shape.fieldId],
  description: [(d) => d.description, DocumentSchema.shape.description],
  title: [(d) => d.title, DocumentSchema.shape.title],
  summaryTruncated: [(d) => d.summaryTruncated, DocumentSchema.shape.summaryTruncated],
  section: [(d) => d.section, DocumentSchema.shape.section],
  targetKind: [(d) => d.targetKind, DocumentSchema.shape.targetKind],
  annotationType: [(d) => d.annotationType, DocumentSchema.shape.annotationType],
  relation: [(d) => d.relation, DocumentSchema.shape.relation],
  pvfVersions: [(d) => d.pvfVersions, DocumentSchema.shape.pvfVersions],
  match: [(d) => d.match, DocumentSchema.shape.match],
  valueCount: [(d) => d.valueCount, DocumentSchema.shape.valueCount],
  status: [(d) => d.status, DocumentSchema.shape.status],
  statusReason: [(d) => d.statusReason, DocumentSchema.shape.statusReason],
  versions: [(d) => d.versions, DocumentSchema.shape.versions],
  trust: [(d) => d.trust, DocumentSchema.shape.trust],
  sectionPattern: [(d) => d.resolved.target.sectionPattern, TargetShape.shape.sectionPattern],
  when: [(d) => d.resolved.target.when, TargetShape.shape.when],
  sentinels: [(d) => d.resolved.annotation.sentinels, AnnotationShape.shape.sentinels],
  columns: [(d) => d.resolved.annotation.columns, AnnotationShape.shape.columns],
} satisfies Record<string, [(doc: BundleDocument) => unknown, z.ZodType]>;
type ColumnName = keyof typeof COLUMNS;
type ColumnValue<K extends ColumnName> = z.output<(typeof COLUMNS)[K][1]>;
const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];

/**
 * A column: its values; or its distinct values (`dict`) and, per document, an index into them (`at`);
 * or the same indexes as runs (`runs`: index, count, index, count, …).
 */
const ColumnSchema = z.union([
  z.strictObject({ values: z.array(z.unknown()) }),
  z.strictObject({ dict: z.array(z.unknown()), at: z.array(z.int().nonnegative()) }),
  z.strictObject({ dict: z.array(z.unknown()), runs: z.array(z.int().nonnegative()) }),
]);
type Column = z.output<typeof ColumnSchema>;
const HeadSchema = z.strictObject({
  format: z.literal('pvfdoc-search-head'),
  version: z.literal(FORMAT_VERSION),
  documents: z.int().nonnegative(),
  columns: z.strictObject(Object.fromEntries(COLUMN_NAMES.map((name) => [name, ColumnSchema])) as Record<ColumnName, typeof ColumnSchema>),
});

const ShardSchema = z.strictObject({
  format: z.literal('pvfdoc-search-shard'),
  version: z.literal(FORMAT_VERSION),
  first: z.int().nonnegative(),
  content: z.array(z.string()),
  /** [offset in the shard, summary] for each document whose summary is not its content. */
  summaries: z.array(z.tuple([z.int().nonnegative(), z.string()])),
});

export interface SearchFiles {
  /** Folder name, from the manifest's hash: a site copy never mixes files of two builds. */
  dirName: string;
  manifestSha256: string;
  /** File name → text, search.json included. */
  files: Map<string, string>;
}

/** The light search files of a loaded bundle; `bundleManifest` is manifest.json exactly as the site copies it. */
export function buildSearchFiles(bundle: Bundle, bundleManifest: string | Uint8Array, shardTargetBytes?: number): SearchFiles {
  const docs = bundle.documents;
  const textBytes = docs.map((d) => utf8Bytes(d.content) + (d.summary === d.content ? 0 : utf8Bytes(d.summary)));
  const target = shardTargetBytes ?? Math.max(SHARD_TARGET_BYTES, Math.ceil(textBytes.reduce((a, b) => a + b, 0) / MAX_SHARDS));
  const files = new Map<string, string>();
  const columns = Object.fromEntries(COLUMN_NAMES.map((name) => [name, encodeColumn(docs.map((d) => (COLUMNS[name][0] as (doc: BundleDocument) => unknown)(d)))]));
  const head = JSON.stringify({ format: 'pvfdoc-search-head', version: FORMAT_VERSION, documents: docs.length, columns });
  files.set(SEARCH_HEAD_NAME, head);

  const shards: ShardRef[] = [];
  let first = 0;
  let bytes = 0;
  const close = (end: number) => {
    const part = docs.slice(first, end);
    const summaries = part.flatMap((d, i) => (d.summary === d.content ? [] : [[i, d.summary] as const]));
    const text = JSON.stringify({ format: 'pvfdoc-search-shard', version: FORMAT_VERSION, first, content: part.map((d) => d.content), summaries });
    const name = `content-${String(shards.length).padStart(4, '0')}.json`;
    files.set(name, text);
    shards.push({ name, sha256: sha256Hex(text), bytes: utf8Bytes(text), first, count: end - first });
    first = end;
    bytes = 0;
  };
  textBytes.forEach((n, i) => {
    bytes += n;
    if (bytes >= target) close(i + 1);
  });
  if (first < docs.length) close(docs.length);

  const manifest: SearchManifest = {
    format: 'pvfdoc-site-search',
    version: FORMAT_VERSION,
    rulesRevision: bundle.rulesRevision,
    bundleManifestSha256: sha256Hex(bundleManifest),
    documents: docs.length,
    head: { name: SEARCH_HEAD_NAME, sha256: sha256Hex(head), bytes: utf8Bytes(head) },
    shards,
  };
  const manifestText = `${JSON.stringify(manifest)}\n`;
  files.set(SEARCH_MANIFEST_NAME, manifestText);
  const manifestSha256 = sha256Hex(manifestText);
  return { dirName: searchDirName(manifestSha256), manifestSha256, files };
}

export function searchDirName(manifestSha256: string): string {
  return `search-${manifestSha256.slice(0, 16)}`;
}

/** A column in the form (ColumnSchema) whose JSON is shortest; the first of equals. */
function encodeColumn(values: readonly unknown[]): Column {
  const plain = { values: [...values] };
  const dict: unknown[] = [];
  const slot = new Map<string, number>();
  const at = values.map((value) => {
    const key = JSON.stringify(value);
    let i = slot.get(key);
    if (i === undefined) {
      i = dict.length;
      slot.set(key, i);
      dict.push(value);
    }
    return i;
  });
  const runs: number[] = [];
  at.forEach((i, k) => {
    if (k > 0 && runs[runs.length - 2] === i) runs[runs.length - 1] = (runs[runs.length - 1] as number) + 1;
    else runs.push(i, 1);
  });
  let best: Column = plain;
  let bestLength = JSON.stringify(plain).length;
  for (const form of [{ dict, at }, { dict, runs }]) {
    const length = JSON.stringify(form).length;
    if (length < bestLength) {
      best = form;
      bestLength = length;
    }
  }
  return best;
}

const ENCODER = new TextEncoder();

function utf8Bytes(text: string): number {
  return ENCODER.encode(text).length;
}

/** search.json, checked: its shards cover the documents once, in order. */
export function parseSearchManifest(text: string): SearchManifest {
  const manifest = parseFile(SEARCH_MANIFEST_NAME, text, SearchManifestSchema);
  let next = 0;
  for (const shard of manifest.shards) {
    if (shard.first !== next) throw new SearchFilesError(`${SEARCH_MANIFEST_NAME}: shard ${shard.name} starts at document ${shard.first}, expected ${next}${REBUILD}`);
    next += shard.count;
  }
  if (next !== manifest.documents) throw new SearchFilesError(`${SEARCH_MANIFEST_NAME}: the shards hold ${next} documents, not ${manifest.documents}${REBUILD}`);
  return manifest;
}

const REBUILD = '; rebuild the site with pvfdoc site.';

function parseFile<T>(name: string, text: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SearchFilesError(`search file ${name} is not valid JSON${REBUILD}`);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new SearchFilesError(`search file ${name} does not match its format: ${result.error.issues[0]?.message ?? ''} at ${result.error.issues[0]?.path.join('.') ?? ''}${REBUILD}`);
  return result.data;
}

/**
 * Contents and summaries of the documents, filled shard by shard. Reading one that has not arrived
 * returns "" and remembers the position: the caller then knows the search it ran saw an incomplete
 * text, fetches those shards and runs it again (fetch-bundle.ts).
 */
export class ContentStore {
  readonly #content: (string | undefined)[];
  readonly #summary = new Map<number, string>();
  readonly #missing = new Set<number>();

  constructor(documents: number) {
    this.#content = new Array<string | undefined>(documents);
  }

  content(position: number): string {
    const content = this.#content[position];
    if (content !== undefined) return content;
    this.#missing.add(position);
    return '';
  }

  summary(position: number): string {
    const content = this.content(position);
    return this.#summary.get(position) ?? content;
  }

  has(position: number): boolean {
    return this.#content[position] !== undefined;
  }

  /** Positions read before their shard arrived since the last call, ascending; the list is then cleared. */
  takeMissing(): number[] {
    const missing = [...this.#missing].sort((a, b) => a - b);
    this.#missing.clear();
    return missing;
  }

  /** Adds a shard's text (already hash-checked against `ref`). */
  add(ref: ShardRef, text: string): void {
    const shard = parseFile(ref.name, text, ShardSchema);
    if (shard.first !== ref.first || shard.content.length !== ref.count || shard.summaries.some(([i]) => i >= ref.count)) {
      throw new SearchFilesError(`search file ${ref.name} does not hold documents ${ref.first}–${ref.first + ref.count - 1}${REBUILD}`);
    }
    shard.content.forEach((content, i) => {
      this.#content[ref.first + i] = content;
    });
    for (const [i, summary] of shard.summaries) this.#summary.set(ref.first + i, summary);
  }
}

/** The indexes of (index, count) runs, or null when the list is not made of pairs. */
function expandRuns(runs: readonly number[]): number[] | null {
  if (runs.length % 2 !== 0) return null;
  const at: number[] = [];
  for (let k = 0; k < runs.length; k += 2) for (let c = 0; c < (runs[k + 1] as number); c++) at.push(runs[k] as number);
  return at;
}

const STORE = Symbol('contents');
const POSITION = Symbol('position');
interface HeadDocumentState {
  [STORE]: ContentStore;
  [POSITION]: number;
}

function notInHead(what: string): never {
  throw new SearchFilesError(`${what} is not part of the site's search head (site/src/browser/search-files.ts): the search read a property the head does not carry`);
}

/** A prototype whose members `keys` (those not own data of the objects) throw when read. */
function guardedPrototype(keys: readonly string[], own: readonly string[], what: string, members: PropertyDescriptorMap = {}): object {
  const descriptors: PropertyDescriptorMap = { ...members };
  for (const key of keys) {
    if (!own.includes(key) && !(key in members)) descriptors[key] = { get: () => notInHead(`${what}.${key}`) };
  }
  return Object.create(Object.prototype, descriptors) as object;
}

const DOCUMENT_OWN = ['documentId', ...COLUMN_NAMES.filter((n) => n in DocumentSchema.shape), 'resolved'];
const DOCUMENT_PROTO = guardedPrototype(Object.keys(DocumentSchema.shape), DOCUMENT_OWN, 'document', {
  content: {
    get(this: HeadDocumentState) {
      return this[STORE].content(this[POSITION]);
    },
  },
  summary: {
    get(this: HeadDocumentState) {
      return this[STORE].summary(this[POSITION]);
    },
  },
});
const RESOLVED_PROTO = guardedPrototype(Object.keys(ResolvedDefinitionSchema.shape), ['target', 'annotation'], 'document.resolved');
const TARGET_PROTO = guardedPrototype(Object.keys(TargetShape.shape), ['sectionPattern', 'when'], 'document.resolved.target');
const ANNOTATION_PROTO = guardedPrototype(Object.keys(AnnotationShape.shape), ['sentinels', 'columns'], 'document.resolved.annotation');

/** Reads and checks head.json (already hash-checked) into the search documents, ids from the search index. */
export function headDocuments(text: string, documentIds: readonly string[], contents: ContentStore): BundleDocument[] {
  const head = parseFile(SEARCH_HEAD_NAME, text, HeadSchema);
  const n = head.documents;
  if (n !== documentIds.length) throw new SearchFilesError(`${SEARCH_HEAD_NAME} holds ${n} documents, the search index ${documentIds.length}${REBUILD}`);
  const column = <K extends ColumnName>(name: K): (i: number) => ColumnValue<K> => {
    const data = head.columns[name];
    const schema = z.array(COLUMNS[name][1]) as unknown as z.ZodType<ColumnValue<K>[]>;
    const bad = (why: string) => new SearchFilesError(`${SEARCH_HEAD_NAME}: column ${name} ${why}${REBUILD}`);
    if ('values' in data) {
      const values = schema.safeParse(data.values);
      if (!values.success || values.data.length !== n) throw bad(values.success ? `has ${values.data.length} values, not ${n}` : 'holds a value of the wrong type');
      const list = values.data;
      return (i) => list[i] as ColumnValue<K>;
    }
    const dict = schema.safeParse(data.dict);
    if (!dict.success) throw bad('holds a value of the wrong type');
    const at = 'at' in data ? data.at : expandRuns(data.runs);
    if (at === null || at.length !== n || at.some((k) => k >= dict.data.length)) throw bad('does not index its dictionary once per document');
    const values = dict.data;
    return (i) => values[at[i] as number] as ColumnValue<K>;
  };
  const read = Object.fromEntries(COLUMN_NAMES.map((name) => [name, column(name)])) as { [K in ColumnName]: (i: number) => ColumnValue<K> };
  const documents: BundleDocument[] = [];
  for (let i = 0; i < n; i++) {
    // Members in DocumentSchema order, the same for every document (one object shape).
    const doc = Object.create(DOCUMENT_PROTO) as Record<string | symbol, unknown>;
    doc[STORE] = contents;
    doc[POSITION] = i;
    doc.documentId = documentIds[i];
    doc.kind = read.kind(i);
    doc.id = read.id(i);
    doc.origin = read.origin(i);
    doc.layer = read.layer(i);
    doc.layerIndex = read.layerIndex(i);
    doc.source = read.source(i);
    doc.fieldId = read.fieldId(i);
    doc.description = read.description(i);
    doc.title = read.title(i);
    doc.summaryTruncated = read.summaryTruncated(i);
    doc.section = read.section(i);
    doc.targetKind = read.targetKind(i);
    doc.annotationType = read.annotationType(i);
    doc.relation = read.relation(i);
    doc.pvfVersions = read.pvfVersions(i);
    doc.match = read.match(i);
    doc.valueCount = read.valueCount(i);
    doc.status = read.status(i);
    doc.statusReason = read.statusReason(i);
    doc.versions = read.versions(i);
    const target = Object.assign(Object.create(TARGET_PROTO) as object, { sectionPattern: read.sectionPattern(i), when: read.when(i) });
    const annotation = Object.assign(Object.create(ANNOTATION_PROTO) as object, { sentinels: read.sentinels(i), columns: read.columns(i) });
    doc.resolved = Object.assign(Object.create(RESOLVED_PROTO) as object, { target, annotation });
    doc.trust = read.trust(i);
    documents.push(doc as unknown as BundleDocument);
  }
  return documents;
}
