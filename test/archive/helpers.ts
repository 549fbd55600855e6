/**
 * Shared inputs of the archive tests: the vectors and samples of test/fixtures, temp folders, a seeded PRNG and
 * the "read everything" walk used by the fuzz and bad-input tests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPvfdocError, type PvfdocError } from '../../runtime/errors.js';
import type { ClassicArchive } from '../../runtime/archive/classic-archive.js';

/** Copies of the golden vectors and real samples, with their README and PROVENANCE.md beside them. */
export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
export const VECTORS = path.join(FIXTURES, 'vectors');
export const SAMPLES = path.join(FIXTURES, 'samples');
export const EXAMPLE_PVF = path.join(VECTORS, 'example.pvf');
export const NKPI_PVF = path.join(VECTORS, 'nkpi-standard.pvf');
export const EXAMPLE_SHA256 = 'c5070bd85c2a0d6486c5a7f13eeb48bf515301e7754dc4ba89fa39b06f5746bf';

/** The real sample scripts (PROVENANCE.md), archive name → sample file. */
export const SAMPLE_FILES: Record<string, string> = {
  'equipment/weapon/102010612.equ': 'godof/test/102010612.equ',
  'skill/fighter/earthbreak.skl': 'godof/test/earthbreak.skl',
  'skill/fighter/test.skl': 'godof/test/test.skl',
  'stackable/cash/2011_championship_pack_at_ft.stk': 'pvfVSCode/src/samples/2011_championship_pack_at_ft.stk',
  'n_string.lst': 'pvfVSCode/src/samples/n_string.lst',
  'stackable/potion/test_nostrum_greatvital.stk': 'DNF-PVF-file-Reference/格式规范工具/test_nostrum_greatvital.stk',
  'skill/swordman/phantommastery_modified.skl': 'DNF-PVF-file-Reference/修改后的模组文件/phantommastery_modified.skl',
};

/** Sample texts (UTF-8 as stored), archive name → text, in a fixed order. */
export function sampleScripts(): [string, string][] {
  return Object.entries(SAMPLE_FILES).map(([name, file]) => [name, readFileSync(path.join(SAMPLES, file), 'utf8')]);
}

/** §7.1 texts in pvfUtility's parser style (CRLF), in the order that gives §7.1's string table. */
export const EXAMPLE_SCRIPTS: [string, string][] = [
  ['equipment/sword.equ', '#PVF_File\r\n\r\n[name]\r\n\t`Sword`\r\n\r\n[grade]\r\n\t3\r\n'],
  ['equipment/equipment.lst', '#PVF_File\r\n\r\n1\r\n`sword.equ`'],
  ['n_string.lst', '#PVF_File\r\n'],
];

export const EXAMPLE_OPTIONS = { guid: '00000000-0000-0000-0000-000000000000', fileVersion: 1 } as const;

const tempDirs: string[] = [];

export function makeTempDir(prefix = 'pvfdoc-archive-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** mulberry32: a small seeded PRNG, [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The PvfdocError a call throws (fails the test on success or on another error type). */
export function caught(run: () => unknown): PvfdocError {
  try {
    run();
  } catch (error) {
    if (isPvfdocError(error)) return error;
    throw new Error(`expected a PvfdocError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a PvfdocError, but the call succeeded');
}

/** Same for async calls. */
export async function caughtAsync(run: () => Promise<unknown>): Promise<PvfdocError> {
  try {
    await run();
  } catch (error) {
    if (isPvfdocError(error)) return error;
    throw new Error(`expected a PvfdocError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a PvfdocError, but the call succeeded');
}

export interface ArchiveSnapshot {
  /** Folder listings, folder → entries as "kind:path:size". */
  listings: Record<string, string[]>;
  /** File → [hex of bytes, canonical text, isScript]. */
  files: Record<string, [string, string, boolean]>;
}

/** Lists every folder and reads every file (bytes and text) of an archive. */
export function snapshotArchive(archive: ClassicArchive): ArchiveSnapshot {
  const listings: Record<string, string[]> = {};
  const files: Record<string, [string, string, boolean]> = {};
  const pending = [''];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = archive.list(dir);
    listings[dir] = entries.map((e) => `${e.kind}:${e.path}:${e.kind === 'file' ? e.size : ''}`);
    for (const entry of entries) {
      if (entry.kind === 'directory') {
        pending.push(entry.path);
        continue;
      }
      const bytes = archive.readFile(entry.path);
      const text = archive.readText(entry.path);
      files[entry.path] = [Buffer.from(bytes).toString('hex'), text.text, text.isScript];
    }
  }
  return { listings, files };
}
