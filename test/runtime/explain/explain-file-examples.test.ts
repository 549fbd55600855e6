/**
 * The shipped example workspace (examples/workspace) explained with the builtin rules: real sample
 * scripts, synthetic lists that make their references resolve.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { explainFile } from '../../../runtime/explain/explain-file.js';
import { ExplainOutputSchema, type ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace, WorkspaceView } from '../../../runtime/workspace/workspace.js';
import { BUILTIN_LAYER, EXAMPLE_WORKSPACE, layerBundle } from '../workspace/helpers.js';

let bundle: Bundle;
let workspace: Workspace;

beforeAll(async () => {
  bundle = await layerBundle(BUILTIN_LAYER);
  workspace = await openDirectoryWorkspace({ workspaceId: 'example', name: 'example', root: EXAMPLE_WORKSPACE, pvfVersion: '90US' });
});
afterAll(async () => {
  await workspace.close();
});

async function explainAll(filePath: string): Promise<ExplainOutput['annotations']> {
  const view = await workspace.view();
  const annotations: ExplainOutput['annotations'] = [];
  let cursor: string | undefined;
  do {
    const out = ExplainOutputSchema.parse(
      await explainFile({ bundle, workspace, input: { workspaceId: 'example', expectedRevision: view.revision, filePath, limit: 100, ...(cursor ? { cursor } : {}) } }),
    );
    expect(out.pvfVersion).toBe('90US');
    annotations.push(...out.annotations);
    cursor = out.nextCursor ?? undefined;
  } while (cursor);
  return annotations;
}

function allFiles(view: WorkspaceView, dir = ''): string[] {
  return view.listDirectory(dir).flatMap((e) => (e.kind === 'directory' ? allFiles(view, e.path) : [e.path]));
}

describe('examples/workspace with the builtin rules', () => {
  it('the gauntlet: name, rarity label, icon, and a resolved [skill data up] skill reference', async () => {
    const annotations = await explainAll('equipment/character/fighter/weapon/102010612.equ');
    expect(annotations.find((a) => a.section === 'name')).toMatchObject({ title: '名称', value: '苍穹幕落臂铠' });
    expect(annotations.find((a) => a.section === 'rarity')).toMatchObject({ value: '4', valueLabel: '史诗' });
    // [icon] also has a text rule on its path token; the image annotation is the one on the frame.
    expect(annotations.find((a) => a.section === 'icon' && a.image)?.image).toEqual({ path: 'item/new_equipment/01_weapon/fighter/gauntlet/gauntlet.img', index: 158 });
    const skills = annotations.filter((a) => a.section === 'skill data up').flatMap((a) => (a.reference ? [a.reference] : []));
    expect(skills).toEqual([
      { relation: '技能', id: '169', context: '[fighter]', name: '金刚碎', path: 'skill/fighter/earthbreak.skl', resolutionStatus: 'resolved' },
      { relation: '技能', id: '169', context: '[at fighter]', name: null, path: null, resolutionStatus: 'missing' },
    ]);
  });

  it('the registries: list rows link to their files with the target names', async () => {
    const skills = await explainAll('skill/fighterskill.lst');
    // Each row: its id token (the builtin rule builtin.lst.row-id, before any section), then the runtime link.
    expect(skills.map((a) => [a.origin ?? 'rule', a.title, a.reference?.path])).toEqual([
      ['rule', '列表 ID', undefined],
      ['runtime', '技能', 'skill/fighter/earthbreak.skl'],
      ['rule', '列表 ID', undefined],
      ['runtime', '技能', 'skill/fighter/test.skl'],
    ]);
    expect(skills[0]).toMatchObject({ section: null, occurrence: null, tokenIndex: 0, value: '169' });
    const runtime = (items: typeof skills) => items.filter((a) => a.origin === 'runtime');
    const stackables = runtime(await explainAll('stackable/stackable.lst'));
    expect(stackables.map((a) => a.reference?.name)).toEqual(['特级生命秘药', '2011格鬥大賽裝扮自選禮盒 (男格鬥)']);
    const equipment = runtime(await explainAll('equipment/equipment.lst'));
    expect(equipment.map((a) => [a.reference?.relation, a.reference?.id, a.title, a.reference?.name])).toEqual([['装备', '102010612', '装备', '苍穹幕落臂铠']]);
  });

  it('every file explains without error; NOTICE.md names every other file', async () => {
    const view = await workspace.view();
    const files = allFiles(view);
    expect(files.length).toBeGreaterThanOrEqual(11);
    const notice = readFileSync(path.join(EXAMPLE_WORKSPACE, 'NOTICE.md'), 'utf8');
    for (const file of files) {
      expect(notice, file).toContain(`\`${file}\``);
      const annotations = await explainAll(file);
      // test.skl is a 97-byte fragment without any section the builtin rules know.
      if (!file.endsWith('test.skl') && /\.(equ|stk|skl)$/.test(file)) expect(annotations.length, file).toBeGreaterThan(0);
    }
  });
});
