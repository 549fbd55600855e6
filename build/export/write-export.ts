/**
 * Puts an export on disk, and reads the `--base` folder. No file is ever half-written: each one goes to
 * a temporary name in the output folder first, and only when all of them are written are they renamed
 * over their final names (a rename within one folder replaces the file whole, on Windows too).
 *
 * The output folder must be new, empty, or one pvfdoc exported into before (it holds `.pvfdoc-export`,
 * which lists the files written; files of that list the new export lacks are removed). A folder with
 * other files is refused unless `force`: then pvfdoc writes its files into it, replacing files of the
 * same names and leaving every other file alone, so it can write straight into an editor's folder.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PvfdocError } from '../../runtime/errors.js';
import type { ExportResult } from './export-knowledge.js';
import { processIsAlive } from '../process-alive.js';

/** The marker file; no `.json` ending, so pvfUtility (which reads every `*.json` there) skips it. */
export const EXPORT_MARKER = '.pvfdoc-export';

const MarkerSchema = z.looseObject({ format: z.string(), rulesRevision: z.string(), files: z.array(z.string()) });

/** `.<name>.pvfdoc-tmp-<pid>-<n>`: a file being written. */
const TEMPORARY = /^\..+\.pvfdoc-tmp-(\d+)-\d+$/;

export interface WrittenExport {
  outDir: string;
  written: string[];
  /** Files of the previous export that this one no longer has. */
  removed: string[];
}

export async function writeExport(outDir: string, result: ExportResult, options: { force: boolean }): Promise<WrittenExport> {
  const previous = await inspectOutDir(outDir, options.force);
  const names = result.files.map((f) => f.path);
  try {
    await mkdir(outDir, { recursive: true });
    await removeStaleTemporaries(outDir, previous.entries);
    const temporaries = result.files.map((f, i) => ({ file: f, tmp: path.join(outDir, `.${f.path}.pvfdoc-tmp-${process.pid}-${i}`) }));
    try {
      for (const { file, tmp } of temporaries) await writeFile(tmp, file.text);
    } catch (cause) {
      await Promise.all(temporaries.map(({ tmp }) => rm(tmp, { force: true })));
      throw cause;
    }
    for (const [i, { file, tmp }] of temporaries.entries()) {
      try {
        await rename(tmp, path.join(outDir, file.path));
      } catch (cause) {
        await Promise.all(temporaries.slice(i).map((t) => rm(t.tmp, { force: true })));
        throw new PvfdocError('IO_ERROR', `could not replace ${path.join(outDir, file.path)}: ${(cause as Error).message}`, {
          hint: `${i} of ${temporaries.length} files were replaced before it (each whole). Close the program that holds the file open (the editor?) and export again.`,
          cause,
        });
      }
    }
    const removed = previous.files.filter((name) => !names.includes(name) && previous.entries.includes(name));
    for (const name of removed) await rm(path.join(outDir, name), { force: true });
    const marker = path.join(outDir, EXPORT_MARKER);
    const markerTmp = path.join(outDir, `${EXPORT_MARKER}.pvfdoc-tmp-${process.pid}-${temporaries.length}`);
    await writeFile(markerTmp, `${JSON.stringify({ format: result.format, rulesRevision: result.rulesRevision, files: names }, null, 2)}\n`);
    await rename(markerTmp, marker);
    return { outDir, written: names, removed };
  } catch (cause) {
    if (cause instanceof PvfdocError) throw cause;
    throw new PvfdocError('IO_ERROR', `could not write the export to ${outDir}: ${(cause as Error).message}`, {
      hint: 'Check that the --out folder is writable.',
      cause,
    });
  }
}

/** The files of a `--base` folder by lower-cased name ("equ.json" → text). */
export async function readExportBase(dir: string): Promise<Map<string, string>> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new PvfdocError('INVALID_ARGUMENT', `--base ${path.resolve(dir)} ${info === null ? 'does not exist' : 'is not a folder'}`, {
      hint: "Give the folder holding the editor's own tag files (docs/editors.md says where), or leave --base out.",
    });
  }
  const base = new Map<string, string>();
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.toLowerCase().endsWith('.json')) continue;
      base.set(entry.name.toLowerCase(), await readFile(path.join(dir, entry.name), 'utf8'));
    }
  } catch (cause) {
    throw new PvfdocError('IO_ERROR', `could not read --base ${dir}: ${(cause as Error).message}`, { hint: 'Check that the folder is readable.', cause });
  }
  return base;
}

/** What the output folder holds now; refuses a file, and a folder of other files without `force`. */
async function inspectOutDir(outDir: string, force: boolean): Promise<{ entries: string[]; files: string[] }> {
  const info = await stat(outDir).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === 'ENOENT') return null;
    throw new PvfdocError('IO_ERROR', `could not read --out ${outDir}: ${cause.message}`, { hint: 'Check that the folder is readable.', cause });
  });
  if (info === null) return { entries: [], files: [] };
  if (!info.isDirectory()) {
    throw new PvfdocError('INVALID_ARGUMENT', `--out ${path.resolve(outDir)} is a file, not a folder`, {
      hint: 'Give a folder to write the export into (it is created when missing).',
    });
  }
  const entries = await readdir(outDir);
  const files = entries.includes(EXPORT_MARKER) ? await readMarkerFiles(path.join(outDir, EXPORT_MARKER)) : [];
  const foreign = entries.filter((e) => e !== EXPORT_MARKER && !files.includes(e) && !TEMPORARY.test(e));
  if (foreign.length > 0 && !force) {
    const listed = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
    throw new PvfdocError('INVALID_ARGUMENT', `--out ${path.resolve(outDir)} holds files pvfdoc did not export (${listed})`, {
      hint: 'Give a new or empty folder, or add --force to write into this one: files of the same names are replaced, all others are left alone.',
    });
  }
  return { entries, files };
}

async function readMarkerFiles(marker: string): Promise<string[]> {
  try {
    const parsed = MarkerSchema.safeParse(JSON.parse(await readFile(marker, 'utf8')));
    // A damaged marker claims nothing: its folder's files then count as someone else's.
    return parsed.success ? parsed.data.files.filter((f) => f === path.basename(f)) : [];
  } catch {
    return [];
  }
}

/** Temporaries an export that was killed while writing left behind (its process is gone). */
async function removeStaleTemporaries(outDir: string, entries: readonly string[]): Promise<void> {
  for (const name of entries) {
    const found = TEMPORARY.exec(name);
    if (!found || processIsAlive(Number(found[1]))) continue;
    await rm(path.join(outDir, name), { force: true });
  }
}
