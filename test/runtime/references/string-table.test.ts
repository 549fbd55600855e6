import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createStringTables,
  decodeStringTable,
  parsePlaceholder,
  parseStringTable,
  UNTRANSLATED_MARKER,
} from '../../../runtime/references/string-table.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { openFolder, removeTempDirs, type FileTree } from '../workspace/helpers.js';

const opened: Workspace[] = [];
afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

async function tables(files: FileTree, options: { legacyEncoding?: string } = {}) {
  const { workspace } = await openFolder(files);
  opened.push(workspace);
  return createStringTables(await workspace.view(), options);
}

const utf16le = (text: string, bom = true) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);

describe('parsePlaceholder', () => {
  it('accepts a whole <index::key> value', () => {
    expect(parsePlaceholder('<3::equip_name_1>')).toEqual({ table: 3, key: 'equip_name_1' });
    expect(parsePlaceholder('< 12 ::k>')).toEqual({ table: 12, key: 'k' });
    expect(parsePlaceholder('<0::中文 键>')).toEqual({ table: 0, key: '中文 键' });
  });

  it("reads pvfUtility's <index::key`text`> form by its key", () => {
    expect(parsePlaceholder('<0::name_1`Sword`>')).toEqual({ table: 0, key: 'name_1' });
  });

  it('rejects anything else', () => {
    for (const value of ['<x::key>', '<3::>', '<3:key>', 'a<3::key>', '<3::key>b', '<-1::k>', '<::k>', '3::k', '<3::a>b>', '']) {
      expect(parsePlaceholder(value), value).toBeNull();
    }
  });
});

describe('.str payloads', () => {
  it('UTF-16LE with BOM, CRLF and // comments; split at the first >; keys trimmed; first non-empty value', () => {
    const text = decodeStringTable(utf16le('// comment>no\r\nname_1>苍穹 > 幕落\r\n empty >\r\nempty>later\r\n>skipped\r\nnoarrow\r\n'));
    const table = parseStringTable(text);
    expect(table.get('name_1')).toBe('苍穹 > 幕落');
    expect(table.get('empty')).toBe('later');
    expect(table.has('// comment')).toBe(false);
    expect(table.size).toBe(2);
  });

  it('UTF-16LE without a BOM, UTF-16BE with one, UTF-8 with and without BOM', () => {
    expect(decodeStringTable(utf16le('k>値\n', false))).toBe('k>値\n');
    expect(decodeStringTable(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('k>v', 'utf16le').swap16()]))).toBe('k>v');
    expect(decodeStringTable(Buffer.from('\uFEFFk>中文\n', 'utf8'))).toBe('k>中文\n');
    expect(decodeStringTable(Buffer.from('k>中文\n', 'utf8'))).toBe('k>中文\n');
  });

  it('bytes that are neither UTF-16 nor UTF-8 use the legacy code page when one is named', () => {
    const bytes = iconv.encode('k>한국어\n', 'cp949');
    expect(decodeStringTable(bytes, 'cp949')).toBe('k>한국어\n');
    expect(decodeStringTable(bytes)).toContain('\uFFFD');
  });
});

describe('string tables of a workspace', () => {
  const files: FileTree = {
    'list/n_string.lst': '3\t`equipment/equipment.str`\n4\t`etc/missing.kor.str`\n',
    'n_string.lst': '3\t`equipment/equipment.kor.str`\n5\t`etc/other.str`\n',
    'equipment/equipment.str': utf16le('base>基础\r\nempty>\r\n'),
    'equipment/equipment.kor.str': utf16le('base>overlay\r\nempty>from overlay\r\nonly_kor>韩文\r\n'),
    'etc/missing.str': Buffer.from('sib>sibling text\n', 'utf8'),
    'etc/other.str': utf16le('k>v'),
  };

  it('resolves through list/n_string.lst first', async () => {
    const t = await tables(files);
    expect(t.available).toBe(true);
    expect(t.lookup(3, 'base')).toEqual({ status: 'resolved', text: '基础', path: 'equipment/equipment.str', fallback: false });
    expect(t.candidates(3)).toEqual(['equipment/equipment.str', 'equipment/equipment.kor.str']);
  });

  it('an empty value does not win; a later candidate answers with fallback', async () => {
    const t = await tables(files);
    expect(t.lookup(3, 'empty')).toEqual({ status: 'resolved', text: 'from overlay', path: 'equipment/equipment.kor.str', fallback: true });
    expect(t.lookup(3, 'only_kor')).toMatchObject({ status: 'resolved', text: '韩文', fallback: true });
  });

  it('a listed file that does not exist falls back to a sibling suffix (here a UTF-8 .str)', async () => {
    const t = await tables(files);
    expect(t.lookup(4, 'sib')).toEqual({ status: 'resolved', text: 'sibling text', path: 'etc/missing.str', fallback: false });
  });

  it('missing keys and unlisted tables are missing', async () => {
    const t = await tables(files);
    expect(t.lookup(3, 'nope')).toEqual({ status: 'missing', text: null, path: null, fallback: false });
    expect(t.lookup(99, 'base').status).toBe('missing');
  });

  it('without any n_string list every lookup is unsupported', async () => {
    const t = await tables({ 'equipment/equipment.str': utf16le('base>x') });
    expect(t.available).toBe(false);
    expect(t.lookup(3, 'base').status).toBe('unsupported');
  });

  it('resolves embedded placeholders left to right; unresolved stay; fallback gets the marker', async () => {
    const t = await tables(files);
    expect(t.resolveText('a <3::base> b <3::nope> c <3::only_kor>')).toBe(`a 基础 b <3::nope> c 韩文${UNTRANSLATED_MARKER}`);
    expect(t.resolveText('no placeholders')).toBe('no placeholders');
  });

  it('reads the sample n_string.lst layout (id `path` per line) with mixed-case paths', async () => {
    const t = await tables({ 'n_string.lst': '0 `Character/Character.kor.str`\n13 `stackable/Stackable.kor.str`\n', 'Stackable/stackable.kor.str': utf16le('potion>药水') });
    expect(t.lookup(13, 'potion')).toMatchObject({ status: 'resolved', text: '药水', path: 'Stackable/stackable.kor.str' });
  });
});
