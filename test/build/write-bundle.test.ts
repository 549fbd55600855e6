/** Writing snapshots leaves no debris: temporaries of killed builds are removed by the next build. */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeStaleTemporaries } from '../../build/write-bundle.js';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-write-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('removeStaleTemporaries', () => {
  it("removes a dead build's folders and pointer, keeps a live build's and everything else", async () => {
    const dir = path.join(root, 'snapshots');
    await mkdir(dir);
    // A pid that surely belongs to no process: one that has just exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const now = Date.now();
    const names = {
      deadFolder: `.tmp-0123abcd-${dead}-${now}`,
      deadPointer: `.current.tmp-${dead}-${now}`,
      liveFolder: `.tmp-0123abcd-${process.pid}-${now}`,
      oldLiveFolder: `.tmp-0123abcd-${process.pid}-${now - 25 * 60 * 60 * 1000}`,
      bundle: '0123abcd0123abcd0123',
    };
    for (const name of [names.deadFolder, names.liveFolder, names.oldLiveFolder, names.bundle]) await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, names.deadPointer), 'x');
    await writeFile(path.join(dir, 'current'), `${names.bundle}\n`);
    const removed = await removeStaleTemporaries(dir, now);
    expect(removed.sort()).toEqual([names.deadFolder, names.deadPointer, names.oldLiveFolder].sort());
    expect((await readdir(dir)).sort()).toEqual([names.liveFolder, names.bundle, 'current'].sort());
  });
});
