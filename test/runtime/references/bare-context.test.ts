/**
 * Contextual relations with a context written without (or with) brackets: `.equ` tags such as
 * `[use skill]` write the job as `gunner` or `[gunner]`, and the 技能 relation keys its lists by
 * `[gunner]`. A context that is not a key is tried with brackets added, and the reverse
 * (runtime/references/resolve-references.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createReferenceResolver } from '../../../runtime/references/resolve-references.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { BUILTIN_LAYER, layerBundle, openFolder, removeTempDirs, WORKSPACE_LAYER, type FileTree } from '../workspace/helpers.js';

const named = (name: string) => `[name]\n\t\`${name}\`\n`;

const FILES: FileTree = {
  'skill/fighterskill.lst': '5\t`fighter/upper.skl`\n',
  'skill/fighter/upper.skl': named('Upper Slash'),
  'skill/creatormageskill.lst': '7\t`creatormage/x.skl`\n',
  'skill/creatormage/x.skl': named('Creator Skill'),
  'appendage/appendage.lst': '3\t`haste.apd`\n',
  'appendage/haste.apd': named('Haste'),
};

const opened: Workspace[] = [];
let workspaceBundle: Bundle;
let builtinBundle: Bundle;

beforeAll(async () => {
  workspaceBundle = await layerBundle(WORKSPACE_LAYER);
  builtinBundle = await layerBundle(BUILTIN_LAYER);
});
afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

async function resolverOf(bundle: Bundle) {
  const { workspace } = await openFolder(FILES);
  opened.push(workspace);
  return createReferenceResolver(bundle, await workspace.view());
}

describe('contextual relations: bare and bracketed job names', () => {
  it('a bare job name finds the list keyed by the bracketed one (case and spaces ignored)', async () => {
    const resolve = await resolverOf(workspaceBundle);
    const ref = (context: string | null) => resolve({ relation: '技能', id: '5', context });
    expect(ref('fighter')).toEqual({ status: 'resolved', name: 'Upper Slash', path: 'skill/fighter/upper.skl' });
    expect(ref('  FIGHTER ')).toMatchObject({ status: 'resolved', name: 'Upper Slash' });
    expect(ref('[fighter]')).toMatchObject({ status: 'resolved', name: 'Upper Slash' });
    expect(resolve({ relation: '技能', id: '7', context: 'creator mage' })).toMatchObject({ status: 'resolved', name: 'Creator Skill' });
  });

  it('an unknown job stays missing, bare or not; no context stays context_required', async () => {
    const resolve = await resolverOf(workspaceBundle);
    expect(resolve({ relation: '技能', id: '5', context: 'gunner' }).status).toBe('missing');
    expect(resolve({ relation: '技能', id: '5', context: '[]' }).status).toBe('missing');
    expect(resolve({ relation: '技能', id: '5', context: '[' }).status).toBe('missing');
    expect(resolve({ relation: '技能', id: '5', context: null }).status).toBe('context_required');
    // The job matches, the id does not.
    expect(resolve({ relation: '技能', id: '6', context: 'fighter' }).status).toBe('missing');
  });

  it('the reverse: a bracketed context finds a bare key (builtin 光环事件 keys "appendage")', async () => {
    const resolve = await resolverOf(builtinBundle);
    expect(resolve({ relation: '光环事件', id: '3', context: 'appendage' })).toMatchObject({ status: 'resolved', name: 'Haste' });
    expect(resolve({ relation: '光环事件', id: '3', context: '[appendage]' })).toMatchObject({ status: 'resolved', name: 'Haste', path: 'appendage/haste.apd' });
    expect(resolve({ relation: '光环事件', id: '3', context: '[aura]' }).status).toBe('missing');
  });
});
