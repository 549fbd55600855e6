/**
 * The builtin layer on example scripts (issue 5, "Must show"): one small script per file type of the
 * facts table (pvf-tag-facts.md, the sourced facts the layer was written from), written from the facts' layouts, in two folder
 * workspaces — test/golden/builtin/workspace (90US layout: `monster/monster.lst` next to
 * `monster/goblin.mob`) and test/golden/builtin/workspace-110us (110US: registries under `list/`,
 * rows from the archive root, 110US-only facts). Every file of both is explained through explainFile
 * (references resolved through the workspace, runtime `.lst` rows included) into
 * test/golden/builtin/<ext>/<name>.explain.txt.
 *
 * Then: every definition of the layer hits at least one token in these examples (so each golden shows
 * each definition on the token it means), and every path note applies to its path
 * (test/golden/builtin/path/path-notes.explain.txt).
 *
 * The goldens were reviewed line by line; a wrong hit is fixed in the rule, never blessed.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import { pathContext } from '../../runtime/explain/annotate-script.js';
import { explainFile } from '../../runtime/explain/explain-file.js';
import { ExplainOutputSchema, type ExplainOutput } from '../../runtime/explain/explain-schema.js';
import { normalizeText } from '../../runtime/script/normalize-text.js';
import { openDirectoryWorkspace } from '../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../runtime/workspace/workspace.js';
import { builtinBundle, extensionOf, filesBelow, formatGolden, formatPathContext, GOLDEN_ROOT, WORKSPACE_110US, WORKSPACE_90US } from './helpers.js';

let bundle: Bundle;
/** Rule ids that annotated something, per version context. */
const hits = new Map<string, Set<string>>();
/** Golden file → workspace file, to keep golden names unique. */
const goldenNames = new Map<string, string>();

beforeAll(async () => {
  bundle = await builtinBundle();
});

interface Explained {
  text: string;
  output: ExplainOutput;
}

async function explainAll(workspace: Workspace, filePath: string): Promise<Explained> {
  const view = await workspace.view();
  const stored = view.resolveFile(filePath);
  if (stored === null) throw new Error(`${filePath} is not in the workspace`);
  let first: ExplainOutput | undefined;
  const annotations: ExplainOutput['annotations'] = [];
  let cursor: string | undefined;
  do {
    const page = ExplainOutputSchema.parse(
      await explainFile({ bundle, workspace, input: { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath, limit: 100, ...(cursor ? { cursor } : {}) } }),
    );
    first ??= page;
    annotations.push(...page.annotations);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (!first) throw new Error('no page');
  return { text: normalizeText(view.readText(stored).text), output: { ...first, annotations, nextCursor: null } };
}

const WORKSPACES = [
  { version: '90US', root: WORKSPACE_90US, prefix: '', label: 'test/golden/builtin/workspace' },
  { version: '110US', root: WORKSPACE_110US, prefix: '110us-', label: 'test/golden/builtin/workspace-110us' },
] as const;

describe.each(WORKSPACES)('the $version example workspace', ({ version, root, prefix, label }) => {
  let workspace: Workspace;
  const files = filesBelow(root);

  beforeAll(async () => {
    workspace = await openDirectoryWorkspace({ workspaceId: `builtin-${version}`, name: label, root, pvfVersion: version });
  });
  afterAll(async () => {
    await workspace.close();
  });

  it.each(files.map((f) => [f]))('%s', async (file) => {
    const ext = extensionOf(file);
    const base = path.posix.basename(file, ext);
    const golden = `${ext.slice(1)}/${prefix}${base}.explain.txt`;
    expect(goldenNames.get(golden) ?? file, `golden name ${golden} is taken`).toBe(file);
    goldenNames.set(golden, file);

    const { text, output } = await explainAll(workspace, file);
    expect(output.pvfVersion).toBe(version);
    const seen = hits.get(version) ?? new Set<string>();
    hits.set(version, seen);
    for (const a of output.annotations) for (const id of a.ruleIds) seen.add(id);
    for (const entry of output.pathContext) seen.add(entry.ruleId);

    await expect(
      formatGolden({
        title: [`${ext} example ${file}`, `workspace ${label}, version ${JSON.stringify(version)}`],
        text,
        annotations: output.annotations,
        warnings: output.warnings,
        pathContext: output.pathContext,
      }),
    ).toMatchFileSnapshot(path.join(GOLDEN_ROOT, golden));
  });
});

/**
 * Definitions no example can show, with the reason. Everything else must hit a token (or, for path
 * rules, a path) in the examples.
 */
const NOT_SHOWN: Record<string, string> = {};

describe('every definition is shown', () => {
  it('every token and section definition of the layer hits something in the examples of its versions', () => {
    const missing: string[] = [];
    for (const doc of bundle.documents) {
      if (doc.kind !== 'rule' || doc.resolved.target.kind === 'path') continue;
      const versions = WORKSPACES.map((w) => w.version).filter((v) => doc.versions[v]?.effective);
      if (versions.length === 0) continue;
      const shown = versions.some((v) => hits.get(v)?.has(doc.id));
      if (!shown && NOT_SHOWN[doc.id] === undefined) missing.push(`${doc.id} (${doc.section ?? ''}; ${versions.join('/')})`);
    }
    expect(missing).toEqual([]);
  });
});

/** One path per path rule of the layer (files and folders the facts name). */
const PATHS = [
  'equipment/character/swordman/sword.equ',
  'creature/dragon.equ',
  'stackable/stackable.lst',
  'character/character.lst',
  'monster/monster.lst',
  'skill/skilllist.lst',
  'skill/autoskill.lst',
  'skill/swordmanskill.lst',
  'skill/atswordmanskill.lst',
  'appendage/appendage.lst',
  'aura/aura.lst',
  'aicharacter/aicharacter.lst',
  'n_quest/epicquest.lst',
  'pvp_mission/mission.lst',
  'n_string.lst',
  'etc/itemname.lst',
  'etc/independentdrop.lst',
  'etc/independentdrop/goblin.etc',
  'etc/worlddrop.etc',
  'etc/itemdropinfo_clearreward.etc',
  'etc/itemdropinfo_common.etc',
  'etc/itemdropinfo_monster_hell.etc',
  'etc/newcashshop.etc',
  'etc/disjoint.etc',
  'etc/compoundavatar.etc',
  'etc/questparameter.etc',
  'etc/ultimateskillcutscene.etc',
  'etc/equipmentpartset.etc',
  'etc/pvpskilltree/swordman.etc',
  'etc/titlebook.etc',
  'etc/goldlimitbylevel.etc',
  'etc/accountcargo.etc',
  'etc/guild.etc',
  'etc/hellparty.etc',
  'etc/questshop.etc',
  'etc/pvpchannellist.etc',
  'etc/chn_schedule.etc',
  'etc/fairpvpstat.etc',
  'etc/hiddennpc.etc',
  'etc/itemdictionary/weapon.etc',
  'clientonly/skilltree/swordman_sp.co',
  'clientonly/skilltree/swordman_tp.co',
  'clientonly/commonskilllist.co',
  'clientonly/cancelskilllist.co',
  'passiveobject/box/animation/stay.ani.als',
  'character/swordman/swordman.str',
  'dungeon/table/difficulty.tbl',
  'equipment/character/swordman.lay',
  'aicharacter/swordman/apc.aic',
  'dungeon/forest.dgn',
  'itemshop/weapon.shp',
  'map/forest/room1.map',
  'n_quest/sample.qst',
  'npc/linus.npc',
  'passiveobject/box/box.obj',
  'region/arad.rgn',
  'town/elvengard.twn',
  'worldmap/arad.wdm',
  'pvp_mission/sample.etc',
];

describe('path notes', () => {
  it('every path rule applies to the path it names (path-notes golden)', async () => {
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const file of PATHS) {
      lines.push(`${file}`);
      const entries = pathContext(bundle, '90US', file);
      for (const entry of entries) {
        seen.add(entry.ruleId);
        lines.push(`  ${formatPathContext(entry)}`);
      }
      if (entries.length === 0) lines.push('  (none)');
    }
    const pathRules = bundle.documents.filter((d) => d.kind === 'rule' && d.resolved.target.kind === 'path' && d.versions['90US']?.effective).map((d) => d.id);
    expect(pathRules.filter((id) => !seen.has(id))).toEqual([]);
    await expect(`# path notes of the builtin layer (pathContext, version "90US")\n\n${lines.join('\n')}\n`).toMatchFileSnapshot(path.join(GOLDEN_ROOT, 'path/path-notes.explain.txt'));
  });
});
