/**
 * Bundles are deterministic and content-addressed (ARCHITECTURE §4): same input, same bytes; the
 * revision follows what a client can observe, not how the JSON was laid out; nothing machine-specific
 * is written; and a written bundle reads back exactly, while a damaged one is refused.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers, type BuiltBundle } from '../../build/compile-layers.js';
import { parseJsonDocument, type JsonDocument } from '../../build/parse-json-document.js';
import { writeBundle } from '../../build/write-bundle.js';
import { loadBundle, openBuiltBundle, resolveCurrentBundleDir } from '../../runtime/bundle/load-bundle.js';
import { sha256Hex } from '../../runtime/bundle/canonical-json.js';
import { BUNDLE_FILES, SCHEMA_VERSION } from '../../runtime/bundle/schema.js';
import { PvfdocError } from '../../runtime/errors.js';
import { TOKENIZER } from '../../runtime/bundle/search-index.js';

const BUILTIN_DIR = fileURLToPath(new URL('../../rules/builtin/', import.meta.url));
const ALL_FILES = ['manifest.json', ...BUNDLE_FILES].sort();
/** Object members whose key order is data (source order is kept in the bundle), not layout. */
const ORDERED_MAPS = new Set(['values', 'contextPaths', 'relations']);

let tmpRoot: string;

async function build(dirs: readonly string[]): Promise<BuiltBundle> {
  const result = await compileLayers(dirs);
  if (!result.ok) throw new Error(`build failed:\n${result.problems.map((p) => `${p.layer} ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
  return result.bundle;
}

/**
 * Writes JSON in another layout: tabs, CRLF, a BOM, and the key order of every structural object
 * reversed. Ordered maps (enum values, context paths, relations) keep their source order, which is data.
 * Key order comes from the parser (JS objects would move integer-like keys such as "10" first).
 */
function relayout(doc: JsonDocument): string {
  const write = (value: unknown, parentKey: string, indent: string): string => {
    const inner = `${indent}\t`;
    if (Array.isArray(value)) {
      if (value.length === 0) return '[ ]';
      return `[\r\n${value.map((item) => inner + write(item, '', inner)).join(',\r\n')}\r\n${indent}]`;
    }
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    const record = value as Record<string, unknown>;
    const keys = doc.entriesOf(record).map(([k]) => k).filter((k) => k in record);
    for (const k of Object.keys(record)) if (!keys.includes(k)) keys.push(k);
    if (!ORDERED_MAPS.has(parentKey)) keys.reverse();
    if (keys.length === 0) return '{ }';
    return `{\r\n${keys.map((k) => `${inner}${JSON.stringify(k)} :  ${write(record[k], k, inner)}`).join(',\r\n')}\r\n${indent}}`;
  };
  return `\uFEFF${write(doc.value, '', '')}\r\n\r\n`;
}

async function copyLayer(name: string, edit?: (file: string, json: unknown) => void): Promise<string> {
  const dir = path.join(tmpRoot, name);
  await cp(BUILTIN_DIR, dir, { recursive: true });
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.json')) continue;
    const doc = parseJsonDocument(await readFile(path.join(dir, file), 'utf8'));
    edit?.(file, doc.value);
    await writeFile(path.join(dir, file), relayout(doc));
  }
  return dir;
}

async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) out.set(name, await readFile(path.join(dir, name)));
  return out;
}

beforeAll(async () => {
  tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-determinism-'));
});

afterAll(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

describe('the builtin layer', () => {
  let first: BuiltBundle;
  let second: BuiltBundle;

  beforeAll(async () => {
    first = await build([BUILTIN_DIR]);
    second = await build([BUILTIN_DIR]);
  });

  it('builds without problems', async () => {
    const result = await compileLayers([BUILTIN_DIR]);
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([]);
    expect([...first.files.keys()].sort()).toEqual(ALL_FILES);
    expect(first.manifest.rulesRevision).toBe(first.rulesRevision);
    expect(first.manifest.schemaVersion).toBe(SCHEMA_VERSION);
  });

  it('building twice gives the same revision and byte-identical files', () => {
    expect(second.rulesRevision).toBe(first.rulesRevision);
    expect([...second.files.keys()]).toEqual([...first.files.keys()]);
    for (const [name, text] of first.files) expect(second.files.get(name), name).toBe(text);
  });

  it('two writes into two snapshot folders are byte-identical, file by file', async () => {
    const dirA = await writeBundle(path.join(tmpRoot, 'snapshots-a'), first, { setCurrent: true });
    const dirB = await writeBundle(path.join(tmpRoot, 'snapshots-b'), second, { setCurrent: true });
    expect(path.basename(dirA)).toBe(first.rulesRevision);
    expect(path.basename(dirB)).toBe(first.rulesRevision);
    const a = await readTree(dirA);
    const b = await readTree(dirB);
    expect([...a.keys()]).toEqual(ALL_FILES);
    expect([...b.keys()]).toEqual(ALL_FILES);
    for (const [name, bytes] of a) {
      expect(b.get(name)?.equals(bytes), name).toBe(true);
      expect(bytes.toString('utf8'), `${name} on disk equals the built text`).toBe(first.files.get(name as never));
    }
    // Nothing else (no temp folders) is left behind.
    expect((await readdir(path.join(tmpRoot, 'snapshots-a'))).sort()).toEqual([first.rulesRevision, 'current'].sort());
  });

  it('the manifest lists every file with its hash and size', () => {
    const listed = first.manifest.files.map((f) => f.name).sort();
    expect(listed).toEqual([...BUNDLE_FILES].sort());
    for (const f of first.manifest.files) expect(f.bytes).toBe(Buffer.byteLength(first.files.get(f.name as never) ?? ''));
  });

  it('holds no absolute paths and no timestamps', async () => {
    const cwd = process.cwd();
    const copy = await copyLayer('builtin-for-paths');
    const fromTemp = await build([copy]);
    expect(fromTemp.rulesRevision).toBe(first.rulesRevision);
    for (const bundle of [first, fromTemp]) {
      for (const [name, text] of bundle.files) {
        expect(text.includes(tmpRoot), `${name} mentions the temp dir`).toBe(false);
        expect(text.includes(os.tmpdir()), `${name} mentions the OS temp dir`).toBe(false);
        expect(text.includes(cwd), `${name} mentions the cwd`).toBe(false);
        expect(text.includes(BUILTIN_DIR.replace(/\/$/, '')), `${name} mentions the layer folder`).toBe(false);
        expect(text, `${name} holds a timestamp`).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      }
    }
  });
});

describe('the revision follows content, not layout', () => {
  let baseline: BuiltBundle;

  beforeAll(async () => {
    baseline = await build([BUILTIN_DIR]);
  });

  it('a copy with keys reordered, other whitespace, CRLF and a BOM gives the same revision and bytes', async () => {
    const dir = await copyLayer('builtin-reordered');
    const original = await readFile(path.join(BUILTIN_DIR, 'annotations.json'), 'utf8');
    const copied = await readFile(path.join(dir, 'annotations.json'), 'utf8');
    expect(copied).not.toBe(original);
    const firstRuleKeys = (text: string) => {
      const doc = parseJsonDocument(text);
      const rule = (doc.value as { rules: object[] }).rules[0] ?? {};
      return doc.entriesOf(rule).map(([k]) => k);
    };
    expect(firstRuleKeys(copied)).toEqual(firstRuleKeys(original).reverse());
    expect(firstRuleKeys(copied).length).toBeGreaterThan(1);
    const reordered = await build([dir]);
    expect(reordered.rulesRevision).toBe(baseline.rulesRevision);
    for (const [name, text] of baseline.files) expect(reordered.files.get(name), name).toBe(text);
  });

  it('changing one title changes the revision (and only the affected documents)', async () => {
    let changedId = '';
    const dir = await copyLayer('builtin-retitled', (file, json) => {
      if (file !== 'annotations.json') return;
      const doc = json as { rules: { id: string; annotation?: { title?: string } }[] };
      const rule = doc.rules.find((r) => r.annotation?.title !== undefined);
      if (!rule?.annotation) throw new Error('builtin has no rule with its own title');
      changedId = rule.id;
      rule.annotation.title = `${rule.annotation.title ?? ''} (changed)`;
    });
    const changed = await build([dir]);
    expect(changed.rulesRevision).not.toBe(baseline.rulesRevision);
    expect(changed.files.get('documents.json')).not.toBe(baseline.files.get('documents.json'));
    expect(changed.files.get('relations.json')).toBe(baseline.files.get('relations.json'));
    expect(changed.files.get('rendering.json')).toBe(baseline.files.get('rendering.json'));
    const before = openBuiltBundle(baseline.files);
    const after = openBuiltBundle(changed.files);
    const differing = after.documents.filter((d) => JSON.stringify(d) !== JSON.stringify(before.documentsById.get(d.documentId)));
    expect(differing.map((d) => d.id)).toEqual([changedId]);
  });
});

describe('writing and loading', () => {
  let built: BuiltBundle;
  let snapshotsDir: string;
  let bundleDir: string;

  beforeAll(async () => {
    built = await build([BUILTIN_DIR]);
    snapshotsDir = path.join(tmpRoot, 'snapshots-load');
    bundleDir = await writeBundle(snapshotsDir, built, { setCurrent: true });
  });

  it('snapshots/current names the revision after writeBundle with setCurrent', async () => {
    expect((await readFile(path.join(snapshotsDir, 'current'), 'utf8')).trim()).toBe(built.rulesRevision);
    expect(await resolveCurrentBundleDir(snapshotsDir)).toBe(bundleDir);
    expect(bundleDir).toBe(path.join(snapshotsDir, built.rulesRevision));
  });

  it('writeBundle without setCurrent leaves current alone', async () => {
    const other = await build([await copyLayer('builtin-other', (file, json) => {
      if (file === 'layer.json') (json as { description: string }).description += ' (other)';
    })]);
    expect(other.rulesRevision).not.toBe(built.rulesRevision);
    await writeBundle(snapshotsDir, other, { setCurrent: false });
    expect((await readFile(path.join(snapshotsDir, 'current'), 'utf8')).trim()).toBe(built.rulesRevision);
    await writeBundle(snapshotsDir, other, { setCurrent: true });
    expect((await readFile(path.join(snapshotsDir, 'current'), 'utf8')).trim()).toBe(other.rulesRevision);
    await writeBundle(snapshotsDir, built, { setCurrent: true });
    expect((await readFile(path.join(snapshotsDir, 'current'), 'utf8')).trim()).toBe(built.rulesRevision);
  });

  it('loadBundle of the written folder round-trips (same as openBuiltBundle)', async () => {
    const loaded = await loadBundle(bundleDir);
    const inMemory = openBuiltBundle(built.files);
    expect(loaded.dir).toBe(bundleDir);
    expect(loaded.rulesRevision).toBe(built.rulesRevision);
    expect(loaded.manifest).toEqual(inMemory.manifest);
    expect(loaded.documents).toEqual(inMemory.documents);
    expect(loaded.documents.length).toBeGreaterThan(0);
    expect(loaded.ruleOrder).toEqual(inMemory.ruleOrder);
    expect(loaded.relations).toEqual(inMemory.relations);
    expect(loaded.rendering).toEqual(inMemory.rendering);
    for (const doc of inMemory.documents) expect(loaded.valuesOf(doc.documentId), doc.id).toEqual(inMemory.valuesOf(doc.documentId));
    expect(loaded.searchIndex.documentCount).toBe(inMemory.searchIndex.documentCount);
    expect(loaded.searchIndex.termCount).toBe(inMemory.searchIndex.termCount);
    expect(loaded.searchIndex.documentCount).toBe(loaded.documents.length);
  });

  describe.each(BUNDLE_FILES.map((f) => [f]))('a corrupt %s (one byte changed)', (file) => {
    it('makes loadBundle throw INVALID_BUNDLE naming the file', async () => {
      const dir = path.join(tmpRoot, `corrupt-${file}`);
      await cp(bundleDir, dir, { recursive: true });
      const bytes = await readFile(path.join(dir, file));
      // Change one ASCII byte in the middle (skip multi-byte UTF-8 sequences to keep it one character).
      let at = Math.floor(bytes.length / 2);
      while ((bytes[at] ?? 0) >= 0x80 || bytes[at] === 0x22 || bytes[at] === 0x5c) at++;
      bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
      await writeFile(path.join(dir, file), bytes);
      const error = await loadBundle(dir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PvfdocError);
      expect((error as PvfdocError).code).toBe('INVALID_BUNDLE');
      expect((error as PvfdocError).message).toContain(file);
      expect((error as PvfdocError).data?.file).toBe(file);
    });
  });

  it('a manifest with schemaVersion 99 makes loadBundle throw INVALID_BUNDLE about the schema version', async () => {
    const dir = path.join(tmpRoot, 'schema-99');
    await cp(bundleDir, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { schemaVersion: number };
    manifest.schemaVersion = 99;
    await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    const error = await loadBundle(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PvfdocError);
    expect((error as PvfdocError).code).toBe('INVALID_BUNDLE');
    expect((error as PvfdocError).message).toContain('schemaVersion 99');
    expect((error as PvfdocError).message).toContain(`schemaVersion ${SCHEMA_VERSION}`);
    expect((error as PvfdocError).data?.file).toBe('manifest.json');
  });

  /** A copy of the bundle with one file rewritten and the manifest's hash and size of it updated. */
  async function withRewrittenFile(name: string, file: string, edit: (json: Record<string, unknown>) => void): Promise<string> {
    const dir = path.join(tmpRoot, name);
    await cp(bundleDir, dir, { recursive: true });
    const json = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    edit(json);
    const text = `${JSON.stringify(json)}\n`;
    await writeFile(path.join(dir, file), text);
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files: { name: string; sha256: string; bytes: number }[] };
    for (const f of manifest.files) {
      if (f.name === file) Object.assign(f, { sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });
    }
    await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    return dir;
  }

  it('a bundle of another search tokenizer is refused with a message naming both tokenizers', async () => {
    const dir = await withRewrittenFile('old-tokenizer', 'manifest.json', (manifest) => {
      manifest.tokenizer = { id: 'pvfdoc-suffix', version: 1 };
    });
    const error = await loadBundle(dir).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(PvfdocError);
    expect((error as PvfdocError).code).toBe('INVALID_BUNDLE');
    expect((error as PvfdocError).message).toContain('pvfdoc-suffix@1');
    expect((error as PvfdocError).message).toContain(`${TOKENIZER.id}@${TOKENIZER.version}`);
    expect((error as PvfdocError).hint).toMatch(/Rebuild/);
  });

  it('a search index whose documentIds do not follow documents.json is refused', async () => {
    const dir = await withRewrittenFile('index-order', 'search-index.json', (index) => {
      (index.documentIds as string[]).reverse();
    });
    await expect(loadBundle(dir)).rejects.toMatchObject({ code: 'INVALID_BUNDLE', data: { file: 'search-index.json' } });
  });

  it('a search index with a damaged posting list is refused', async () => {
    const dir = await withRewrittenFile('index-postings', 'search-index.json', (index) => {
      const terms = index.terms as Record<string, string>;
      const first = Object.keys(terms)[0] ?? '';
      terms[first] = '~';
    });
    await expect(loadBundle(dir)).rejects.toMatchObject({ code: 'INVALID_BUNDLE', data: { file: 'search-index.json' } });
  });

  it('documents.json stores each text once; loaded documents have title, content and summary', async () => {
    const stored = (JSON.parse(built.files.get('documents.json') ?? '') as { documents: Record<string, unknown>[] }).documents;
    const loaded = await loadBundle(bundleDir);
    expect(stored).toHaveLength(loaded.documents.length);
    for (const [i, doc] of loaded.documents.entries()) {
      const raw = stored[i] as Record<string, unknown>;
      expect(raw).not.toHaveProperty('title');
      expect(raw).not.toHaveProperty('content');
      expect(doc.title).toBe(doc.resolved.annotation.title);
      expect(doc.content).toBe(doc.resolved.annotation.content);
      if (doc.summary === doc.content) expect(raw).not.toHaveProperty('summary');
      else expect(raw.summary).toBe(doc.summary);
    }
  });

  it('a missing bundle file makes loadBundle throw INVALID_BUNDLE naming the file', async () => {
    const dir = path.join(tmpRoot, 'missing-file');
    await cp(bundleDir, dir, { recursive: true });
    await rm(path.join(dir, 'relations.json'));
    await expect(loadBundle(dir)).rejects.toMatchObject({ code: 'INVALID_BUNDLE', data: { file: 'relations.json' } });
  });
});
