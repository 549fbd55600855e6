/**
 * Shared inputs of the archive tests: the vectors and samples of test/fixtures, temp folders, the
 * PvfdocError catchers and the "read everything" walk used by the fuzz and bad-input tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import { walkArchive } from '../../support/walk-archive.js';
import { makeTempDir as makeTestTempDir } from '../../support/temp-dirs.js';

export { caught, caughtAsync } from '../../support/caught.js';
export { removeTempDirs } from '../../support/temp-dirs.js';

/** Copies of the golden vectors and real samples, with their README and PROVENANCE.md beside them. */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');
const VECTORS = path.join(FIXTURES, 'vectors');
export const SAMPLES = path.join(FIXTURES, 'samples');
export const EXAMPLE_PVF = path.join(VECTORS, 'example.pvf');
export const NKPI_PVF = path.join(VECTORS, 'nkpi-standard.pvf');
export const EXAMPLE_SHA256 = 'c5070bd85c2a0d6486c5a7f13eeb48bf515301e7754dc4ba89fa39b06f5746bf';

/** The real sample scripts (PROVENANCE.md), archive name → sample file. */
const SAMPLE_FILES: Record<string, string> = {
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

/** The suite's prefix tells whose folder a leftover temp folder is. */
export function makeTempDir(prefix = 'pvfdoc-archive-'): string {
  return makeTestTempDir(prefix);
}

export interface ArchiveSnapshot {
  /** Folder listings, folder → entries as "kind:path:size". */
  listings: Record<string, string[]>;
  /** File → [hex of bytes, canonical text, isScript]. */
  files: Record<string, [string, string, boolean]>;
}

/** Lists every folder and reads every file (bytes and text) of an archive. */
export function snapshotArchive(archive: ClassicArchive): ArchiveSnapshot {
  const files: Record<string, [string, string, boolean]> = {};
  const listings = walkArchive(archive, (file) => {
    const bytes = archive.readFile(file);
    const text = archive.readText(file);
    files[file] = [Buffer.from(bytes).toString('hex'), text.text, text.isScript];
  });
  return { listings, files };
}

/** Lists every folder (depth first) and calls `visit` with each file; returns the listings as ArchiveSnapshot holds them. */
