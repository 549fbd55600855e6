/**
 * The file source's positioned reads on real bytes on disk: a read of its own buffer, a read into a
 * buffer the caller lends (a view of it, the lent bytes past the read untouched), a short read at the
 * end of the file, and reads after the file was closed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSource } from '../../../runtime/script/archive-source.js';

let dir: string;
let file: string;
const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-source-'));
  file = path.join(dir, 'data.bin');
  await writeFile(file, bytes);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('file source reads', () => {
  it('reads into a lent buffer when it is large enough, else into its own', async () => {
    const source = await openFileSource(file);
    try {
      const lent = new Uint8Array(4096).fill(0xee);
      const a = source.read(1000, 300, lent);
      expect(a.buffer).toBe(lent.buffer);
      expect(a.length).toBe(300);
      expect([...a]).toEqual([...bytes.subarray(1000, 1300)]);
      expect(lent[300]).toBe(0xee);
      // The next read into the same buffer replaces the first one's bytes (the caller was done with them).
      const b = source.read(50_000, 10, lent);
      expect([...b]).toEqual([...bytes.subarray(50_000, 50_010)]);
      expect(a[0]).toBe(bytes[50_000]);
      // Too small a buffer is not used.
      const c = source.read(0, 8192, lent);
      expect(c.buffer).not.toBe(lent.buffer);
      expect([...c]).toEqual([...bytes.subarray(0, 8192)]);
      // Past the end: what there is.
      expect(source.read(99_990, 100, lent).length).toBe(10);
      expect(source.read(99_990, 100).length).toBe(10);
    } finally {
      await source.close();
    }
    expect(() => source.read(0, 10)).toThrow(/changed on disk|closed/);
  });
});
