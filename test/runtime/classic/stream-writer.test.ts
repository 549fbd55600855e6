/**
 * The streaming mode of the test writer (streamClassicArchive, used by bench/archive.ts): an archive
 * written block by block to disk reads back exactly like the one built in memory, including a block
 * larger than the writer's chunk, and it is a valid archive for every check of the reader.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openClassicArchive, openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { streamClassicArchive, writeClassicArchive } from '../../support/write-classic-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { archiveFiles, sampleWorkspaceScripts } from './sample-workspace.js';

afterAll(() => removeTempDirs());

describe('streamClassicArchive', () => {
  it('reads back like writeClassicArchive: same listings, texts and bytes of every file but the string table', async () => {
    const scripts = sampleWorkspaceScripts();
    const big = new Uint8Array(9 * 1024 * 1024 + 3).map((_, i) => (i * 7) & 0xff);
    const files: [string, Uint8Array][] = [
      ['sprite/big.img', big],
      ['etc/readme.txt', Buffer.from('hello\r\nworld')],
    ];
    const content = new Map<string, { script: string } | { data: Uint8Array }>([
      ...scripts.map(([p, text]): [string, { script: string }] => [p, { script: text }]),
      ...files.map(([p, data]): [string, { data: Uint8Array }] => [p, { data }]),
    ]);
    const file = path.join(makeTempDir(), 'streamed.pvf');
    const progress: number[] = [];
    const result = await streamClassicArchive(file, {
      paths: [...content.keys()],
      content: (p) => content.get(p) ?? { data: new Uint8Array(0) },
      encoding: 'utf-8',
      trailer: true,
      onProgress: (done) => progress.push(done),
    });
    expect(result.files).toBe(content.size + 1);
    expect(result.size).toBe(statSync(file).size);
    expect(progress.at(-1)).toBe(content.size + 1);

    const streamed = await openClassicArchive(file);
    const memory = openClassicArchiveBytes(writeClassicArchive({ scripts, files, encoding: 'utf-8', trailer: true }), 'memory.pvf');
    try {
      expect(streamed.encoding.encoding).toBe('utf-8');
      expect(streamed.warnings()).toEqual([]);
      const names = archiveFiles(streamed);
      expect(names).toEqual(archiveFiles(memory));
      for (const name of names) {
        if (name === 'stringtable.bin') continue; // its strings are in another first-use order
        const [a, b] = [streamed.readText(name), memory.readText(name)];
        expect([a.text, a.isScript], name).toEqual([b.text, b.isScript]);
        // Compiled scripts refer to string indexes; other files keep their bytes.
        if (!a.isScript) expect(Buffer.from(streamed.readFile(name)).equals(Buffer.from(memory.readFile(name))), name).toBe(true);
      }
      expect(Buffer.from(streamed.readFile('sprite/big.img')).equals(Buffer.from(big))).toBe(true);
    } finally {
      await streamed.close();
    }
  });

  it('writes an archive without scripts (an empty stringtable.bin) and one of many small files', async () => {
    const dir = makeTempDir();
    const empty = path.join(dir, 'empty.pvf');
    await streamClassicArchive(empty, { paths: ['a.txt'], content: () => ({ data: Buffer.from('x') }) });
    const a = await openClassicArchive(empty);
    expect(a.readText('a.txt').text).toBe('x');
    expect(a.fileCount).toBe(2);
    await a.close();

    const many = path.join(dir, 'many.pvf');
    const paths = Array.from({ length: 5000 }, (_, i) => `equipment/character/f${i % 7}/item${i}.equ`);
    await streamClassicArchive(many, { paths, content: (p) => ({ script: `[name]\n\`${p}\`\n[rarity]\n${p.length % 5}` }), encoding: 'utf-8' });
    const b = await openClassicArchive(many);
    expect(b.fileCount).toBe(5001);
    const one = 'equipment/character/f2/item1234.equ';
    expect(b.readText(one).text).toBe(`#PVF_File\n\n[name]\n\t\`${one}\`\n\n[rarity]\n\t${one.length % 5}\n`);
    await b.close();
  });
});
