/**
 * The real samples of test/fixtures/samples as a small workspace, in both kinds: a classic archive
 * (built with the test writer) and a folder holding that archive's canonical texts. Used by the
 * contract-parity, samples-explained and explain-token tests.
 *
 * Layout (90US, as test/builtin explains the samples): the samples under their file types' folders,
 * `.lst` registries next to them with rows relative to the list's folder, so references resolve:
 * equipment 102010612 and 101, stackables 2600261 and 3036, fighter skills 169 and 1, swordman skill 76
 * (the `[at fighter]` list names a file that does not exist, so that reference is `missing`). The
 * real `n_string.lst` sample maps table 3 to `equipment/equipment.kor.str`, which holds the texts of
 * `linked.equ`'s string links. `linked.equ` carries every classic form the decompiler prints without a
 * plain form (`<id::key`text`>` links, one with a missing key, `{3=…}`, `{4=…}`, `{6=…}`, `{8=…}`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileLayers } from '../../../build/compile-layers.js';
import type { ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import { openBuiltBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { SAMPLES } from './helpers.js';

export const BUILTIN_LAYER = path.resolve(import.meta.dirname, '../../../rules/builtin');

/** Sample file (under test/fixtures/samples) → archive path (90US layout). */
export const SAMPLE_PATHS: [sample: string, archivePath: string][] = [
  ['godof/test/102010612.equ', 'equipment/character/fighter/weapon/102010612.equ'],
  ['godof/test/earthbreak.skl', 'skill/fighter/earthbreak.skl'],
  ['godof/test/test.skl', 'skill/fighter/test.skl'],
  ['DNF-PVF-file-Reference/修改后的模组文件/phantommastery_modified.skl', 'skill/swordman/phantommastery_modified.skl'],
  ['DNF-PVF-file-Reference/格式规范工具/test_nostrum_greatvital.stk', 'stackable/test_nostrum_greatvital.stk'],
  ['pvfVSCode/src/samples/2011_championship_pack_at_ft.stk', 'stackable/2011_championship_pack_at_ft.stk'],
  ['pvfVSCode/src/samples/n_string.lst', 'n_string.lst'],
];

export const LINKED_EQU = 'equipment/character/fighter/weapon/linked.equ';
export const STR_FILE = 'equipment/equipment.kor.str';

/** pvfUtility-dialect text with the classic forms (link texts are ignored by the compiler). */
const LINKED_TEXT = [
  '#PVF_File',
  '',
  '[name]',
  '\t<3::linked_name`stale text, replaced on read`>',
  '',
  '[explain]',
  '\t<3::linked_explain``>',
  '',
  '[flavor text]',
  '\t<3::no_such_key`x`>',
  '',
  '[rarity]',
  '\t3',
  '',
  '[minimum level]',
  '\t{3=70}',
  '',
  '[weight]',
  '\t{4=-2147483648}\t1.5\t-2\t1.0e-05',
  '',
  '[command]',
  '\t{6=`(RIGHT)`}',
  '\t{8=`,`}',
  '\t{6=`(SKILL)`}',
  '[/command]',
  '',
].join('\n');

const STR_TEXT = ['linked_name>链接之剑', 'linked_explain>说明：`反引号` 与 > 号', ''].join('\n');

const REGISTRIES: [string, string][] = [
  ['equipment/equipment.lst', '#PVF_File\n\n102010612\t`character/fighter/weapon/102010612.equ`\n101\t`character/fighter/weapon/linked.equ`\n'],
  ['stackable/stackable.lst', '#PVF_File\n\n2600261\t`test_nostrum_greatvital.stk`\n3036\t`2011_championship_pack_at_ft.stk`\n'],
  ['skill/fighterskill.lst', '#PVF_File\n\n169\t`fighter/earthbreak.skl`\n1\t`fighter/test.skl`\n'],
  ['skill/atfighterskill.lst', '#PVF_File\n\n169\t`atfighter/no_such_skill.skl`\n'],
  ['skill/swordmanskill.lst', '#PVF_File\n\n76\t`swordman/phantommastery_modified.skl`\n'],
];

/** Script texts to compile, in stringtable order: samples, linked.equ, registries. */
export function sampleWorkspaceScripts(): [string, string][] {
  const samples = SAMPLE_PATHS.map(([sample, archivePath]): [string, string] => [archivePath, readFileSync(path.join(SAMPLES, sample), 'utf8')]);
  return [...samples, [LINKED_EQU, LINKED_TEXT], ...REGISTRIES];
}

/** The sample workspace as a classic archive in `encoding` (utf-8 or cp936: the samples are simplified Chinese). */
export function buildSampleArchive(encoding = 'utf-8'): Buffer {
  return writeClassicArchive({ scripts: sampleWorkspaceScripts(), files: [[STR_FILE, STR_TEXT]], encoding, trailer: true });
}

/** Files kept as raw bytes in the folder (binary: no canonical text). */
const BINARY = new Set(['stringtable.bin']);

/** Every file path of an archive (depth first, listing order). */
export function archiveFiles(archive: ClassicArchive): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of archive.list(dir)) {
      if (entry.kind === 'directory') walk(entry.path);
      else out.push(entry.path);
    }
  };
  walk('');
  return out;
}

/**
 * Writes the archive as a folder: each compiled script and text file as its canonical text (UTF-8, the
 * text read_file returns), binaries as their bytes. Paths as stored in the archive.
 */
export function writeFolderOf(archive: ClassicArchive, root: string): string[] {
  const files = archiveFiles(archive);
  for (const file of files) {
    const target = path.join(root, ...file.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, BINARY.has(file) ? archive.readFile(file) : archive.readText(file).text);
  }
  return files;
}

let builtin: Promise<Bundle> | undefined;

/** rules/builtin compiled in memory (once per test file). */
export function builtinBundle(): Promise<Bundle> {
  builtin ??= compileLayers([BUILTIN_LAYER]).then((result) => {
    if (!result.ok) throw new Error(`rules/builtin does not compile:\n${JSON.stringify(result.problems.slice(0, 5), null, 2)}`);
    return openBuiltBundle(result.bundle.files);
  });
  return builtin;
}
