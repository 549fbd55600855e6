/**
 * String tables and `<idx::key>` placeholders (pvf-nkpi-format §11.5, §13, §17.4 vectors 4–5): the
 * archive-level resolver (NkpiStringTables), and explain through an nkpi workspace in the 110US `list/`
 * layout resolving `{8=`<13::key>`}` names like a folder does.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { explainFile } from '../../runtime/explain/explain-file.js';
import { openNkpiArchiveBytes } from '../../runtime/nkpi/nkpi-archive.js';
import { NkpiStringTables, parseNkpiPlaceholder, parseNkpiStr } from '../../runtime/nkpi/string-tables.js';
import { openDirectoryWorkspace } from '../../runtime/workspace/open-directory-workspace.js';
import { openNkpiWorkspace } from '../../runtime/workspace/open-nkpi-workspace.js';
import type { Workspace } from '../../runtime/workspace/workspace.js';
import { writeTree } from '../runtime/workspace/helpers.js';
import { NkpiArchiveBuilder, writeNkpiArchive } from '../support/write-nkpi-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';

const utf16 = (text: string, bom = true) => Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le');

describe('.str tables and placeholders (§13, §17.4)', () => {
  it('vector 4: BOM, CRLF, the last duplicate key wins; the text ends at the first U+0000', () => {
    const table = parseNkpiStr(utf16('name_1>old\r\nname_1>new\r\nname_2>last'));
    expect(Object.fromEntries(table)).toEqual({ name_1: 'new', name_2: 'last' });
    expect(Object.fromEntries(parseNkpiStr(utf16('// comment\nk>v\n>no key\nnone\n\u0000\u0000after>x', false)))).toEqual({ k: 'v' });
  });

  it('placeholder grammar: trimmed signed index, non-empty key', () => {
    expect(parseNkpiPlaceholder('<13::name_10000039>')).toEqual({ table: 13, key: 'name_10000039' });
    expect(parseNkpiPlaceholder('< +3 ::  k >')).toEqual({ table: 3, key: 'k' });
    expect(parseNkpiPlaceholder('<npc::1071>')).toBeNull();
    expect(parseNkpiPlaceholder('<3::>')).toBeNull();
    expect(parseNkpiPlaceholder('<3:k>')).toBeNull();
  });

  const archive = () =>
    openNkpiArchiveBytes(
      writeNkpiArchive({
        scripts: {
          'list/n_string.lst': '3 `String/equipment.uv.str`\n13 `String/stackable.str`',
          'list/n_string_kor.lst': '3 `String/equipment.kor.str`',
        },
        files: {
          'String/equipment.uv.str': { dataType: 3, data: utf16('name_1>稀有克隆装扮腰部\r\nname_2>\r\n\u0000\u0000\u0000') },
          'String/equipment.kor.str': { dataType: 3, data: utf16('name_1>한국\r\nname_2>포니 비즈 뱅글\r\n') },
          'String/stackable.uv.str': { dataType: 3, data: utf16('name_9>票') },
        },
      }),
      'strings.pvf',
    );

  it('vector 5: an empty base value falls through to the overlay, marked （未翻译）', () => {
    const tables = new NkpiStringTables(archive());
    expect(tables.available).toBe(true);
    expect(tables.candidates(3)).toEqual(['String/equipment.uv.str', 'String/equipment.kor.str']);
    expect(tables.resolveText('<3::name_1> / <3::name_2>')).toBe('稀有克隆装扮腰部 / 포니 비즈 뱅글（未翻译）');
    expect(tables.lookup(3, 'name_2')).toEqual({ status: 'resolved', text: '포니 비즈 뱅글', path: 'String/equipment.kor.str', fallback: true });
    expect(tables.lookup(3, 'name_3')).toEqual({ status: 'missing', text: null, path: null, fallback: false });
    // Unresolved and speaker markers stay verbatim.
    expect(tables.resolveText('<npc::1071> <3::nope> <3::name_1')).toBe('<npc::1071> <3::nope> <3::name_1');
  });

  it('a listed file that is missing falls back to <base>.translate/.kor/.uv/.str', () => {
    const tables = new NkpiStringTables(archive());
    expect(tables.candidates(13)).toEqual(['String/stackable.uv.str']);
    expect(tables.resolveText('<13::name_9>')).toBe('票');
  });

  it('no n_string list at all: unsupported', () => {
    const tables = new NkpiStringTables(openNkpiArchiveBytes(writeNkpiArchive({ scripts: { 'a.equ': '[name]\n`a`' } }), 'none.pvf'));
    expect(tables.available).toBe(false);
    expect(tables.lookup(3, 'k').status).toBe('unsupported');
  });
});

describe('explain through an nkpi workspace in the 110US list/ layout', () => {
  const FILES = {
    'list/n_string.lst': '13\t`String/stackable.uv.str`\n3\t`String/equipment.uv.str`\n',
    'list/n_string_kor.lst': '13\t`String/stackable.kor.str`\n',
    'list/stackable.lst': '3101\t`stackable/ticket.stk`\n3102\t`stackable/other.stk`\n',
    'list/equipment.lst': '200\t`equipment/title/champion.equ`\n',
    'stackable/ticket.stk': '[name]\n{8=`<13::name_3101>`}\n\n[rarity]\n\t7\n',
    'stackable/other.stk': '[name]\n{8=`<13::name_3102>`}\n',
    'equipment/title/champion.equ': '[name]\n{8=`<3::title_200>`}\n\n[need material]\n\t3101\t1\t3102\t2\n',
  };
  const STR = {
    'String/stackable.uv.str': utf16('name_3101>兑换券\r\nname_3102>\r\n'),
    'String/stackable.kor.str': utf16('name_3102>교환권\r\n'),
    'String/equipment.uv.str': utf16('title_200>冠军\r\n'),
  };
  let bundle: Bundle;
  let folder: Workspace;
  let nkpi: Workspace;

  beforeAll(async () => {
    const result = await compileLayers([path.resolve(import.meta.dirname, '../../rules/builtin')]);
    if (!result.ok) throw new Error('rules/builtin does not compile');
    bundle = await openBuiltBundle(result.bundle.files);
    const root = makeTempDir();
    writeTree(root, { ...FILES, ...STR });
    folder = await openDirectoryWorkspace({ workspaceId: 'folder110', name: 'f', root, pvfVersion: '110US' });
    const builder = new NkpiArchiveBuilder({ keys: 'alternate' });
    for (const [file, text] of Object.entries(FILES)) builder.addScript(file, text);
    for (const [file, data] of Object.entries(STR)) builder.addFile(file, 3, data);
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, builder.build());
    nkpi = await openNkpiWorkspace({ workspaceId: 'nkpi110', name: 'n', path: file, pvfVersion: '110US' });
  });

  afterAll(async () => {
    await folder.close();
    await nkpi.close();
    removeTempDirs();
  });

  const explain = async (workspace: Workspace, filePath: string) => {
    const view = await workspace.view();
    return explainFile({ bundle, workspace, input: { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath, limit: 100 } });
  };
  const strip = (output: Awaited<ReturnType<typeof explain>>) => output.annotations.map(({ range: _r, start: _s, end: _e, ...rest }) => rest);

  it('the archive renders the names as block tokens', async () => {
    const view = await nkpi.view();
    expect(view.readText('stackable/ticket.stk').text).toBe('[name]\n\t{8=`<13::name_3101>`}\n\n[rarity]\n\t7');
    expect(view.readText('list/stackable.lst').text).toBe('3101\t`stackable/ticket.stk`\n3102\t`stackable/other.stk`');
  });

  it('placeholders and referenced names resolve as in the folder (base table, then the Korean overlay)', async () => {
    for (const file of Object.keys(FILES)) expect(strip(await explain(nkpi, file)), file).toEqual(strip(await explain(folder, file)));
    const ticket = await explain(nkpi, 'stackable/ticket.stk');
    expect(ticket.annotations.find((a) => a.type === 'placeholder')).toMatchObject({ title: '兑换券', placeholder: { table: 13, key: 'name_3101', fallback: false, resolutionStatus: 'resolved' } });
    const other = await explain(nkpi, 'stackable/other.stk');
    expect(other.annotations.find((a) => a.type === 'placeholder')).toMatchObject({ title: '교환권（未翻译）', placeholder: { fallback: true } });
    const champion = await explain(nkpi, 'equipment/title/champion.equ');
    const names = champion.annotations.filter((a) => a.reference?.resolutionStatus === 'resolved').map((a) => a.reference?.name);
    expect(names).toEqual(expect.arrayContaining(['兑换券', '교환권（未翻译）']));
  });
});
