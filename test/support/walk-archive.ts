/**
 * What the archive fuzz tests of both readers share: walking every folder of an opened archive, and
 * opening mutated bytes where only a PvfdocError naming the archive may come out.
 */
import { expect } from 'vitest';
import { isPvfdocError } from '../../runtime/errors.js';

interface ListedEntry {
  kind: 'file' | 'directory';
  path: string;
  size?: number | null;
}

/** Lists every folder from the root and visits every file; returns the listings (`kind:path:size`). */
export function walkArchive(archive: { list(dir: string): readonly ListedEntry[] }, visit: (file: string) => void): Record<string, string[]> {
  const listings: Record<string, string[]> = {};
  const pending = [''];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const entries = archive.list(dir);
    listings[dir] = entries.map((e) => `${e.kind}:${e.path}:${e.kind === 'file' ? (e.size ?? '') : ''}`);
    for (const entry of entries) {
      if (entry.kind === 'directory') pending.push(entry.path);
      else visit(entry.path);
    }
  }
  return listings;
}

/** Opens `bytes` with `open`; null when the open refused them as it should (a PvfdocError naming `label`). */
export function openOrRefused<A>(open: () => A, label: string): A | null {
  try {
    return open();
  } catch (error) {
    if (!isPvfdocError(error)) throw new Error(`${label}: open threw ${String(error)}`, { cause: error });
    expect(error.message.startsWith(`${label}: `), error.message).toBe(true);
    return null;
  }
}

/** Runs one read of a fuzzed archive: true when it worked, false for a PvfdocError; anything else fails. */
export function readOrRefused(read: () => void, label: string, file: string): boolean {
  try {
    read();
    return true;
  } catch (error) {
    if (!isPvfdocError(error)) throw new Error(`${label}: reading ${file} threw ${String(error)}`, { cause: error });
    expect(error.message.length).toBeGreaterThan(0);
    return false;
  }
}
