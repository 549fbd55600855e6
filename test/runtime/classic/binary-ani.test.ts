/**
 * Binary `.ani` files (runtime/classic/binary-ani.ts, pvf-classic-format §4.9) read as `#PVF_File`
 * text: the exact text of a file holding every item kind; any cut, extra byte, unknown tag or
 * missing image is refused, random bytes never throw (and the archive then reads the file as before); random animations lex
 * cleanly with their values in place; in an archive (and a folder holding the stored bytes), read
 * through the workspace and explained with the builtin `.ani` rules, and over MCP by the published CLI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { writeBundle } from '../../../build/write-bundle.js';
import { decompileBinaryAni, isBinaryAni } from '../../../runtime/classic/binary-ani.js';
import { openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { lexScript } from '../../../runtime/script/lex-script.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import { encodeBinaryAni, type AniFrame, type AniItem, type AniSpec } from '../../support/binary-ani.js';
import { seededRandom } from '../../support/random.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { BUILTIN_LAYER } from './sample-workspace.js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

const EVERY_ITEM: AniSpec = {
  images: ['Character/Fighter/Effect/punch.img', 'Monster/Goblin/body.img'],
  overall: [
    { tag: 'LOOP', value: 1 },
    { tag: 'SHADOW', value: 0 },
    { tag: 'COORD', value: 2 },
    { tag: 'OPERATION', value: 7 },
    { tag: 'SPECTRUM', first: 1, term: 50, lifeTime: 300, color: [255, 128, 0, 200], effect: 2 },
  ],
  frames: [
    {
      boxes: [
        { kind: 'damage', values: [-40, -10, 0, 78, 20, 117] },
        { kind: 'attack', values: [10, -15, 9, 110, 30, 92] },
      ],
      image: { index: 1, sprite: 19 },
      pos: [-219, -337],
      items: [
        { tag: 'DELAY', value: 150 },
        { tag: 'IMAGE RATE', x: 1.2, y: 2 },
        { tag: 'IMAGE ROTATE', value: -45.5 },
        { tag: 'RGBA', rgba: [0, 255, 255, 255] },
        { tag: 'GRAPHIC EFFECT', effect: 2 },
        { tag: 'INTERPOLATION', value: 1 },
        { tag: 'DAMAGE TYPE', value: 1 },
        { tag: 'PLAY SOUND', sound: 'GOBLIN_ATK' },
        { tag: 'SET FLAG', value: 3 },
        { tag: 'FLIP TYPE', value: 1 },
        { tag: 'COORD', value: 1 },
      ],
    },
    {
      boxes: [],
      image: null,
      pos: [0, 0],
      items: [
        { tag: 'LOOP START' },
        { tag: 'PRELOAD' },
        { tag: 'GRAPHIC EFFECT', effect: 5, extra: [10, 20, 30] },
        { tag: 'GRAPHIC EFFECT', effect: 6, extra: [3, 0xfffe] },
        { tag: 'CLIP', clip: [1, 2, 300, 0xfffc] },
        { tag: 'LOOP END', value: 4 },
        { tag: 'DAMAGE TYPE', value: 9 },
        { tag: 'SHADOW', value: 1 },
        { tag: 'LOOP', value: 0 },
      ],
    },
  ],
};

const EVERY_ITEM_TEXT = [
  '#PVF_File',
  '[LOOP]',
  '\t1',
  '[SHADOW]',
  '\t0',
  '[COORD]',
  '\t2',
  '[OPERATION]',
  '\t7',
  '[SPECTRUM]',
  '\t1',
  '\t[SPECTRUM TERM]',
  '\t\t50',
  '\t[SPECTRUM LIFE TIME]',
  '\t\t300',
  '\t[SPECTRUM COLOR]',
  '\t\t255\t128\t0\t200',
  '\t[SPECTRUM EFFECT]',
  '\t\t`LINEARDODGE`',
  '[FRAME MAX]',
  '\t2',
  '',
  '[FRAME000]',
  '\t[IMAGE]',
  '\t\t`Monster/Goblin/body.img`',
  '\t\t19',
  '\t[IMAGE POS]',
  '\t\t-219\t-337',
  '\t[DELAY]',
  '\t\t150',
  '\t[IMAGE RATE]',
  '\t\t1.2\t2.0',
  '\t[IMAGE ROTATE]',
  '\t\t-45.5',
  '\t[RGBA]',
  '\t\t0\t255\t255\t255',
  '\t[GRAPHIC EFFECT]',
  '\t\t`LINEARDODGE`',
  '\t[INTERPOLATION]',
  '\t\t1',
  '\t[DAMAGE TYPE]',
  '\t\t`SUPERARMOR`',
  '\t[PLAY SOUND]',
  '\t\t`GOBLIN_ATK`',
  '\t[SET FLAG]',
  '\t\t3',
  '\t[FLIP TYPE]',
  '\t\t`HORIZON`',
  '\t[COORD]',
  '\t\t1',
  '\t[DAMAGE BOX]',
  '\t-40\t-10\t0\t78\t20\t117',
  '\t[ATTACK BOX]',
  '\t10\t-15\t9\t110\t30\t92',
  '',
  '[FRAME001]',
  '\t[IMAGE]',
  '\t\t``',
  '\t\t0',
  '\t[IMAGE POS]',
  '\t\t0\t0',
  '\t[LOOP START]',
  '\t[PRELOAD]',
  '\t\t1',
  '\t[GRAPHIC EFFECT]',
  '\t\t`MONOCHROME`',
  '\t\t10\t20\t30',
  '\t[GRAPHIC EFFECT]',
  '\t\t`SPACEDISTORT`',
  '\t\t3\t-2',
  '\t[CLIP]',
  '\t\t1\t2\t300\t-4',
  '\t[LOOP END]',
  '\t\t4',
  '\t[DAMAGE TYPE]',
  '\t\t9',
  '\t[SHADOW]',
  '\t\t1',
  '\t[LOOP]',
  '\t\t0',
  '',
].join('\n');

describe('binary .ani as text', () => {
  it('renders every item kind as pvfUtility lays it out (enumerations by name, an unknown one as its number)', () => {
    const bytes = encodeBinaryAni(EVERY_ITEM);
    expect(isBinaryAni('monster/goblin/attack.ani', bytes)).toBe(true);
    expect(decompileBinaryAni(bytes, latin1)).toEqual({ text: EVERY_ITEM_TEXT });
  });

  it('refuses every cut of the bytes, an extra byte, an unknown tag and an image index past the list', () => {
    const bytes = encodeBinaryAni(EVERY_ITEM);
    for (let n = 0; n < bytes.length; n++) expect(decompileBinaryAni(bytes.subarray(0, n), latin1), `cut at ${n}`).toHaveProperty('problem');
    expect(decompileBinaryAni(Uint8Array.from([...bytes, 0]), latin1)).toEqual({ problem: '1 bytes left after the last frame' });
    const unknownItem = encodeBinaryAni({ images: [], overall: [], frames: [{ boxes: [], image: null, pos: [0, 0], items: [{ tag: 'DELAY', value: 1 }] }] });
    unknownItem[unknownItem.length - 6] = 99; // the DELAY tag
    expect(decompileBinaryAni(unknownItem, latin1)).toEqual({ problem: `unknown frame item 99 at byte ${unknownItem.length - 6} (frame 0)` });
    const noImage = encodeBinaryAni({ images: ['a.img'], overall: [], frames: [{ boxes: [], image: { index: 1, sprite: 0 }, pos: [0, 0], items: [] }] });
    expect(decompileBinaryAni(noImage, latin1)).toEqual({ problem: 'frame 0 uses image 1, but the file lists 1' });
    const unknownOverall = encodeBinaryAni({ images: [], overall: [{ tag: 'DELAY', value: 1 }], frames: [] });
    expect(decompileBinaryAni(unknownOverall, latin1)).toEqual({ problem: 'unknown overall item 12 at byte 6' });
  });

  it('never throws on random bytes: each is a text or a problem', () => {
    const random = seededRandom(0xa42);
    for (let round = 0; round < 3000; round++) {
      const bytes = Uint8Array.from({ length: Math.floor(random() * 64) }, () => (random() < 0.6 ? 0 : Math.floor(random() * 256)));
      const result = decompileBinaryAni(bytes, latin1);
      expect('text' in result || 'problem' in result).toBe(true);
    }
    // Six zero bytes: no frames, no images, no items.
    expect(decompileBinaryAni(new Uint8Array(6), latin1)).toEqual({ text: '#PVF_File\n[FRAME MAX]\n\t0\n' });
  });

  it('is told from compiled scripts, text animations and other files', () => {
    const bytes = encodeBinaryAni(EVERY_ITEM);
    expect(isBinaryAni('a/B.ANI', bytes)).toBe(true);
    expect(isBinaryAni('a/b.equ', bytes)).toBe(false);
    expect(isBinaryAni('a/b.ani', Buffer.from('#PVF_File\n[FRAME MAX]\n\t1\n'))).toBe(false);
    expect(isBinaryAni('a/b.ani', Uint8Array.from([0xb0, 0xd0, 0, 0, 0]))).toBe(false);
  });

  it('random animations lex cleanly, with a [FRAMEnnn] per frame and every delay and box value in place', () => {
    const random = seededRandom(0xa41);
    const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
    const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T;
    for (let round = 0; round < 200; round++) {
      const images = Array.from({ length: int(0, 3) }, (_, i) => `Ani/Image${i}.img`);
      const frames: AniFrame[] = Array.from({ length: int(0, 6) }, () => ({
        boxes: Array.from({ length: int(0, 3) }, () => ({ kind: pick(['damage', 'attack'] as const), values: Array.from({ length: 6 }, () => int(-500, 500)) as AniFrame['boxes'][number]['values'] })),
        image: images.length > 0 && random() < 0.8 ? { index: int(0, images.length - 1), sprite: int(0, 300) } : null,
        pos: [int(-400, 400), int(-400, 400)],
        items: Array.from({ length: int(0, 4) }, (): AniItem => pick<() => AniItem>([() => ({ tag: 'DELAY', value: int(0, 1000) }), () => ({ tag: 'IMAGE RATE', x: int(1, 40) / 8, y: int(1, 40) / 8 }), () => ({ tag: 'RGBA', rgba: [int(0, 255), int(0, 255), int(0, 255), int(0, 255)] }), () => ({ tag: 'GRAPHIC EFFECT', effect: int(0, 6) })])()),
      }));
      const result = decompileBinaryAni(encodeBinaryAni({ images, overall: [], frames }), latin1);
      if (!('text' in result)) throw new Error(`round ${round}: ${result.problem}`);
      const lexed = lexScript(result.text);
      expect(lexed.warnings, `round ${round}`).toEqual([]);
      expect(result.text.match(/^\[FRAME\d{3}\]$/gm)?.length ?? 0).toBe(frames.length);
      const delays = frames.flatMap((f) => f.items.flatMap((it) => (it.tag === 'DELAY' ? [String(it.value)] : [])));
      expect([...result.text.matchAll(/\[DELAY\]\n\t\t(-?\d+)/g)].map((m) => m[1])).toEqual(delays);
      const boxes = frames.flatMap((f) => f.boxes.map((b) => b.values.join('\t')));
      expect([...result.text.matchAll(/\[(?:DAMAGE|ATTACK) BOX\]\n\t(.*)/g)].map((m) => m[1])).toEqual(boxes);
    }
  });
});

describe('binary .ani in a classic archive', () => {
  afterAll(() => removeTempDirs());

  const archiveBytes = (): Buffer =>
    writeClassicArchive({
      scripts: { 'monster/goblin/goblin.mob': '#PVF_File\n[name]\n\t`goblin`\n' },
      files: { 'monster/goblin/animation/attack.ani': encodeBinaryAni(EVERY_ITEM), 'monster/goblin/animation/broken.ani': encodeBinaryAni(EVERY_ITEM).subarray(0, 40) },
      encoding: 'cp936',
    });

  it('reads as the rendered text, a script to explain; a broken one reads as before', () => {
    const archive = openClassicArchiveBytes(archiveBytes(), 'test.pvf');
    const text = archive.readText('monster/goblin/animation/attack.ani');
    expect(text).toMatchObject({ text: EVERY_ITEM_TEXT, isScript: true, source: 'script' });
    const broken = archive.readText('monster/goblin/animation/broken.ani');
    expect(broken).toMatchObject({ isScript: false, source: 'text' });
  });

  it('a folder workspace holding the stored bytes reads the same text and textRevision', async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, 'monster/goblin/animation'), { recursive: true });
    writeFileSync(path.join(dir, 'monster/goblin/animation/attack.ani'), encodeBinaryAni(EVERY_ITEM));
    const folder = await openDirectoryWorkspace({ workspaceId: 'f', name: 'f', root: dir });
    try {
      const fromFolder = (await folder.view()).readText('monster/goblin/animation/attack.ani');
      const fromArchive = openClassicArchiveBytes(archiveBytes(), 'test.pvf').readText('monster/goblin/animation/attack.ani');
      expect(fromFolder).toMatchObject({ text: EVERY_ITEM_TEXT, isScript: true, textRevision: fromArchive.textRevision });
    } finally {
      await folder.close();
    }
  });

  it('over MCP: read_file gives the text and pvf_annotation_explain titles its tags with the builtin .ani rules', async () => {
    const dir = makeTempDir();
    const snapshots = path.join(dir, 'snapshots');
    const compiled = await compileLayers([BUILTIN_LAYER]);
    if (!compiled.ok) throw new Error('rules/builtin does not compile');
    await writeBundle(snapshots, compiled.bundle, { setCurrent: true });
    const file = path.join(dir, 'Script.pvf');
    writeFileSync(file, archiveBytes());
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve(import.meta.dirname, '../../../dist/pvfdoc.mjs'), 'serve', '--snapshots', snapshots, '--workspace', `main=${file}`],
      cwd: dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'binary-ani-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
        return result.structuredContent ?? {};
      };
      const read = await call('read_file', { workspaceId: 'main', filePath: 'monster/goblin/animation/attack.ani' });
      expect(read.text).toBe(EVERY_ITEM_TEXT);
      const titles: string[] = [];
      let cursor: unknown;
      do {
        const page = await call('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: read.revision, filePath: 'monster/goblin/animation/attack.ani', limit: 100, ...(cursor ? { cursor } : {}) });
        titles.push(...(page.annotations as { title: string }[]).map((a) => a.title));
        cursor = page.nextCursor;
      } while (cursor);
      for (const title of ['总帧数', '帧延迟 ms', '受击框', '攻击框', '图形效果', '残影']) expect(titles, title).toContain(title);
    } finally {
      await client.close();
    }
  });
});
