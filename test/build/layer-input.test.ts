/** Rule files as bytes: only well-formed UTF-8 loads; JavaScript-special keys are plain keys. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { firstInvalidUtf8, loadLayers } from '../../build/load-layers.js';
import { openBuiltBundle } from '../../runtime/bundle/load-bundle.js';
import { annotateScript } from '../../runtime/explain/annotate-script.js';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-input-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function layer(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name, kind: 'user' }));
  for (const [file, body] of Object.entries(files)) await writeFile(path.join(dir, file), body);
  return dir;
}

describe('rule file bytes', () => {
  it('finds the first byte that is not well-formed UTF-8', () => {
    expect(firstInvalidUtf8(Buffer.from('稀有度 ok', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2); // surrogate
    expect(firstInvalidUtf8(Buffer.from([0xf5, 0x80, 0x80, 0x80]))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe7, 0xa8]))).toBe(1); // cut short
  });

  it('refuses a GBK-saved rule file with the byte offset instead of replacing characters silently', async () => {
    const json = JSON.stringify({ version: 1, rules: [{ id: 'r', target: { kind: 'section', section: 'rarity' }, annotation: { title: '稀有度', type: 'text' } }] });
    const dir = await layer('gbk', { 'annotations.json': iconv.encode(json, 'gbk') });
    const { problems } = await loadLayers([dir]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'annotations.json', severity: 'error' });
    expect(problems[0]?.message).toMatch(/^is not valid UTF-8 \(byte offset \d+, 0x[0-9a-f]{2}\): save it as UTF-8$/);
  });

  it('treats "__proto__" as an enum key and "constructor" as a relation name like any other', async () => {
    const annotations = JSON.stringify({
      version: 1,
      rules: [
        { id: 'e', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'y', index: 0 }, annotation: { title: 't', type: 'enum', values: { __proto__: '原型', '1': '一' } } },
        { id: 'r', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'x', index: 0 }, annotation: { title: 'ref', type: 'reference', relation: 'constructor' } },
      ],
    }).replace('"values":{"1"', '"values":{"__proto__":"原型","1"');
    const lists = JSON.stringify({ version: 1, relations: { constructor: { listPath: 'a.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' } } });
    const dir = await layer('special-keys', { 'annotations.json': annotations, 'lists.json': lists });
    const compiled = await compileLayers([dir]);
    expect(compiled.problems).toEqual([]);
    if (!compiled.ok) return;
    const { annotations: items } = annotateScript({ bundle: openBuiltBundle(compiled.bundle.files), versionKey: '', filePath: 'a.equ', text: '[y] __proto__ [y] 1 [y] toString [x] 5' });
    expect(items.filter((a) => a.section === 'y').map((a) => [a.value, a.valueLabel ?? null, a.unknownValue ?? false])).toEqual([
      ['__proto__', '原型', false],
      ['1', '一', false],
      ['toString', null, true],
    ]);
    expect(items.find((a) => a.section === 'x')?.reference?.relation).toBe('constructor');
  });
});
