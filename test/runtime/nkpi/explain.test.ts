/**
 * Explain of the same scripts from a folder, an nkpi archive and a classic archive (issue 8, "Must
 * show"): every file
 * of the builtin example workspaces (test/golden/builtin/workspace, 90US layout with `.lst` next to its
 * files; workspace-110us, `list/` layout with root-relative rows) is written into nkpi archives (scripts
 * encoded as pvfine encodes its text, other files as UTF-16 text), then explained through explainFile
 * with the builtin rules from both workspaces.
 *
 * The results are identical except for these named dialect differences (the folder holds pvfUtility-
 * style text, the archive renders pvfine's dialect from tokens):
 *
 * 1. positions: `range`, `start`, `end` of annotations and warnings, and `textRevision` (layout differs:
 *    pvfine indents values, puts block tokens on their own lines, has no final newline);
 * 2. `#` comments (`#PVF_File`, notes) are not tokens, so the archive text has none;
 * 3. the classic archive keeps `.als` files as text (its reader never decompiles them), the nkpi archive
 *    as tokens, as pvfine does;
 * 4. lexer warnings about text the encoder never stores (a `[` without `]`, an unterminated string):
 *    none in these workspaces, so warnings are compared too;
 * 5. `valueType` of a command or separator: the folder writes `{6=`…`}` / `{8=`…`}` (`block`), pvfine's
 *    dialect a backtick string (`string`); `valueType` says how the text at hand writes a token.
 *
 * Everything else must match: rule and runtime annotations (titles, contents, ruleIds, sections,
 * occurrences, token indexes, values, labels, references resolved through `.lst` lists, path links,
 * placeholders), pathContext and the version context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import { explainFile } from '../../../runtime/explain/explain-file.js';
import type { ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { classicDriver, nkpiDriver } from '../../../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace } from '../../../runtime/workspace/archive-workspace.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace, WorkspaceView } from '../../../runtime/workspace/workspace.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { NkpiArchiveBuilder, type NkpiWriterOptions } from '../../support/write-nkpi-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUILTIN_LAYER = fileURLToPath(new URL('../../../rules/builtin/', import.meta.url));
const GOLDEN = fileURLToPath(new URL('../../golden/builtin/', import.meta.url));

let bundle: Bundle;
const opened: Workspace[] = [];

beforeAll(async () => {
  const result = await compileLayers([BUILTIN_LAYER]);
  if (!result.ok) throw new Error(`rules/builtin does not compile: ${JSON.stringify(result.problems)}`);
  bundle = await openBuiltBundle(result.bundle.files);
});

afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

/** Every file of a view, depth first, stored paths. */
function allFiles(view: WorkspaceView, dir = ''): string[] {
  const out: string[] = [];
  for (const entry of view.listDirectory(dir)) {
    if (entry.kind === 'directory') out.push(...allFiles(view, entry.path));
    else out.push(entry.path);
  }
  return out;
}

/** An nkpi archive with the files of a folder view: scripts encoded, other text as UTF-16, binaries as they are. */
function archiveOfView(view: WorkspaceView, options: NkpiWriterOptions): Buffer {
  const builder = new NkpiArchiveBuilder(options);
  for (const file of allFiles(view)) {
    const read = view.readText(file);
    if (read.isScript) builder.addScript(file, read.text);
    else if (read.text.includes('\u0000') || read.text.includes('\uFFFD')) builder.addFile(file, 0, view.readBytes(file));
    else builder.addText(file, read.text);
  }
  return builder.build();
}

/**
 * A classic archive with the files of a folder view: scripts compiled, other files as their bytes. The
 * classic reader never decompiles `.als`, `.txt` and `.ui` files (runtime/classic/README.md), so those
 * stay text, as pvfUtility stores them.
 */
function classicOfView(view: WorkspaceView): Buffer {
  const scripts: [string, string][] = [];
  const files: [string, Uint8Array][] = [];
  for (const file of allFiles(view)) {
    const read = view.readText(file);
    if (read.isScript && !/\.(als|txt|ui)$/i.test(file)) scripts.push([file, read.text]);
    else files.push([file, view.readBytes(file)]);
  }
  return writeClassicArchive({ scripts, files, encoding: 'utf-8', keepCase: true });
}

async function explainAll(workspace: Workspace, filePath: string): Promise<ExplainOutput> {
  const view = await workspace.view();
  let first: ExplainOutput | undefined;
  const annotations: ExplainOutput['annotations'] = [];
  let cursor: string | undefined;
  do {
    const page = await explainFile({ bundle, workspace, input: { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath, limit: 100, ...(cursor ? { cursor } : {}) } });
    first ??= page;
    annotations.push(...page.annotations);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (!first) throw new Error('no page');
  return { ...first, annotations, nextCursor: null };
}

/** An explain result without the named dialect differences (positions, ids, text revision). */
function comparable(output: ExplainOutput): unknown {
  return {
    filePath: output.filePath,
    pvfVersion: output.pvfVersion,
    pathContext: output.pathContext,
    annotations: output.annotations.map(({ range: _range, start: _start, end: _end, ...annotation }) => ({
      ...annotation,
      valueType: annotation.valueType === 'block' ? 'string' : annotation.valueType,
    })),
    warnings: output.warnings.map(({ range: _range, start: _start, end: _end, ...warning }) => warning),
    truncated: output.truncated,
  };
}

const CASES = [
  { folder: 'workspace', folderVersion: '90US', writer: { keys: 'standard', guard: true }, nkpiVersion: '90US' },
  { folder: 'workspace', folderVersion: '90CN', writer: { keys: 'alternate' }, nkpiVersion: '90CN' },
  { folder: 'workspace-110us', folderVersion: '110US', writer: { keys: 'standard' }, nkpiVersion: '110US' },
] as const;

describe.each(CASES)('$folder explained as a folder ($folderVersion) and as an nkpi archive ($writer.keys keys)', ({ folder, folderVersion, writer, nkpiVersion }) => {
  let folderWorkspace: Workspace;
  let nkpiWorkspace: Workspace;
  let classicWorkspace: Workspace;
  let files: string[];

  beforeAll(async () => {
    folderWorkspace = await openDirectoryWorkspace({ workspaceId: `folder-${folder}-${folderVersion}`, name: folder, root: path.join(GOLDEN, folder), pvfVersion: folderVersion });
    opened.push(folderWorkspace);
    const view = await folderWorkspace.view();
    files = allFiles(view).filter((f) => view.readText(f).isScript);
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, archiveOfView(view, writer));
    // 110US archives are paged (keys required); the same content under standard keys is told its version.
    nkpiWorkspace = await createArchiveWorkspace(nkpiDriver, { workspaceId: `nkpi-${folder}-${nkpiVersion}`, name: folder, path: file, reader: {}, ...(nkpiVersion === '110US' ? { pvfVersion: '110US' } : {}) });
    opened.push(nkpiWorkspace);
    const classicFile = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(classicFile, classicOfView(view));
    classicWorkspace = await createArchiveWorkspace(classicDriver, { workspaceId: `classic-${folder}-${folderVersion}`, name: folder, path: classicFile, pvfVersion: folderVersion, reader: { encoding: 'utf-8' } });
    opened.push(classicWorkspace);
  });

  it('the archive holds the same files and reports the version', async () => {
    const folderView = await folderWorkspace.view();
    const nkpiView = await nkpiWorkspace.view();
    expect(allFiles(nkpiView)).toEqual(allFiles(folderView));
    expect(nkpiWorkspace.info()).toMatchObject({ kind: 'pvf-nkpi', pvfVersion: nkpiVersion, archiveOpen: true });
  });

  it('every script explains identically, modulo the named dialect differences', async () => {
    let annotations = 0;
    let references = 0;
    for (const file of files) {
      const a = await explainAll(folderWorkspace, file);
      const b = await explainAll(nkpiWorkspace, file);
      expect(b.pvfVersion, file).toBe(folderVersion);
      expect(comparable(b), file).toEqual(comparable(a));
      annotations += a.annotations.length;
      references += a.annotations.filter((x) => x.reference?.resolutionStatus === 'resolved' || x.origin === 'runtime').length;
    }
    expect(annotations).toBeGreaterThan(folder === 'workspace' ? 1000 : 10);
    expect(references).toBeGreaterThan(0);
  });

  it('and identically from a classic archive of the same scripts', async () => {
    expect(classicWorkspace.info()).toMatchObject({ kind: 'pvf-classic', archiveOpen: true });
    for (const file of files) {
      const a = await explainAll(folderWorkspace, file);
      const c = await explainAll(classicWorkspace, file);
      expect(comparable(c), file).toEqual(comparable(a));
    }
  });
});
