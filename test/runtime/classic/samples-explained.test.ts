/**
 * The real samples packed into an archive and explained (issue 4, "Must show"): the samples of
 * test/fixtures/samples with `.lst` registries and a `.str` table are written into a Script.pvf
 * (test writer), opened the way `--workspace main=Script.pvf --pvf-version 90US` opens it, and explained
 * over MCP with the builtin rules: names, enum labels (rarity, job, stackable type), a skill reference
 * resolved through the contextual relation to the skill's file and name, string links resolved from
 * the `.str` table (and a missing key reported, not guessed), `.lst` rows with their targets' names.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainOutput, ExplainOutputAnnotation } from '../../../runtime/explain/explain-schema.js';
import { openWorkspace } from '../../../runtime/workspace/open-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { connectMcp, type McpConnection } from '../../support/mcp-client.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { buildSampleArchive, builtinBundle, LINKED_EQU, SAMPLE_PATHS } from './sample-workspace.js';

const EQU = 'equipment/character/fighter/weapon/102010612.equ';

describe.each(['utf-8', 'cp936'])('the real samples in a %s Script.pvf, explained over MCP', (encoding) => {
  let workspace: Workspace;
  let mcp: McpConnection;
  let revision: number;

  beforeAll(async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, buildSampleArchive(encoding));
    workspace = await openWorkspace({ workspaceId: 'main', name: 'main', path: file, pvfVersion: '90US' });
    mcp = await connectMcp(await builtinBundle(), new Map([['main', workspace]]));
    const info = await mcp.call('workspace_info', {});
    const main = (info.workspaces as { revision: number; kind: string; encoding: string; archiveOpen: boolean }[])[0];
    expect(main).toMatchObject({ kind: 'pvf-classic', encoding, archiveOpen: true, pvfVersion: '90US' });
    revision = main?.revision ?? -1;
  });

  afterAll(async () => {
    await mcp?.close();
    await workspace?.close();
    removeTempDirs();
  });

  /** Every page of an explanation (optionally one section), merged. */
  async function explain(filePath: string, extra: Record<string, unknown> = {}): Promise<{ out: ExplainOutput; text: string }> {
    const annotations: ExplainOutputAnnotation[] = [];
    let cursor: string | undefined;
    let out: ExplainOutput;
    do {
      out = (await mcp.call('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision, filePath, limit: 100, ...extra, ...(cursor ? { cursor } : {}) })) as ExplainOutput;
      annotations.push(...out.annotations);
      cursor = out.nextCursor ?? undefined;
    } while (cursor !== undefined);
    const read = await mcp.call('read_file', { workspaceId: 'main', filePath });
    return { out: { ...out, annotations }, text: read.text as string };
  }

  function find(annotations: readonly ExplainOutputAnnotation[], section: string, tokenIndex: number | null, origin: 'rule' | 'runtime' = 'rule'): ExplainOutputAnnotation {
    const found = annotations.find((a) => a.section === section && a.tokenIndex === tokenIndex && (a.origin ?? 'rule') === origin);
    if (!found) throw new Error(`no ${origin} annotation on [${section}] token ${tokenIndex}`);
    return found;
  }

  it('every sample is a script that explains without lexer or structure warnings, its ranges pointing into read_file text', async () => {
    const integralFloats: { file: string; line: number; value: string }[] = [];
    const ranges: { file: string; line: number; where: string }[] = [];
    for (const [, file] of SAMPLE_PATHS) {
      const { out, text } = await explain(file);
      expect(text.startsWith('#PVF_File\n'), file).toBe(true);
      expect(out.warnings, file).toEqual([]);
      expect(out.annotations.length, file).toBeGreaterThan(0);
      for (const a of out.annotations) {
        const slice = text.slice(a.range.start, a.range.end);
        if (a.tokenIndex === null && a.section !== null) expect(slice, file).toBe(`[${a.section}]`);
        else if (a.value !== null && a.tokenIndex !== null && a.lastTokenIndex === undefined && /^-?\d+$/.test(a.value)) expect(Number(slice), file).toBe(Number(a.value));
        // The decompiled text writes a float with a point (`1.0`) and an int without: valueType says which
        // one a value is, also where the canonical value of a float reads as an integer.
        if (a.valueType === 'int') expect(slice, file).toMatch(/^(-?\d+|\{3=-?\d+\})$/);
        if (a.valueType === 'float') expect(slice, file).toMatch(/[.eE]|^\{4=/);
        if (a.valueType === 'float' && /^-?\d+$/.test(a.value ?? '')) integralFloats.push({ file, line: a.start.line, value: a.value as string });
        if (a.lastTokenIndex !== undefined) ranges.push({ file, line: a.start.line, where: `[${a.section}]#${a.occurrence}.${a.tokenIndex}-${a.lastTokenIndex} ` });
      }
    }
    expect(integralFloats.length).toBeGreaterThan(0);
    // The text lines (what an agent reads without structuredContent) mark such a value as a float.
    const float = integralFloats[0] as { file: string; line: number; value: string };
    const result = (await mcp.client.callTool({
      name: 'pvf_annotation_explain',
      arguments: { workspaceId: 'main', expectedRevision: revision, filePath: float.file, startLine: float.line, endLine: float.line },
    })) as CallToolResult;
    expect(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toContain(` ${float.value} (float)`);
    // A range of tokens names its first and last token there.
    const range = ranges[0] as { file: string; line: number; where: string };
    const ranged = (await mcp.client.callTool({
      name: 'pvf_annotation_explain',
      arguments: { workspaceId: 'main', expectedRevision: revision, filePath: range.file, startLine: range.line, endLine: range.line },
    })) as CallToolResult;
    expect(ranged.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toContain(range.where);
  });

  it('the gauntlet: its name, rarity and jobs labelled, its skill reference resolved to the skill file and name', async () => {
    const { out, text } = await explain(EQU);
    const name = find(out.annotations, 'name', 0);
    expect(name).toMatchObject({ title: '名称', value: '苍穹幕落臂铠' });
    expect(text.slice(name.range.start, name.range.end)).toBe('`苍穹幕落臂铠`');
    expect(find(out.annotations, 'rarity', 0)).toMatchObject({ value: '4', valueLabel: '史诗' });
    expect(find(out.annotations, 'usable job', 1)).toMatchObject({ value: '[at fighter]', valueLabel: '格斗家·男' });
    expect(find(out.annotations, 'equipment type', 0)).toMatchObject({ value: '[weapon]', valueLabel: '武器' });

    const skills = (await explain(EQU, { section: 'skill data up' })).out.annotations.filter((a) => a.reference);
    expect(skills.map((a) => a.reference)).toEqual([
      { relation: '技能', id: '169', context: '[fighter]', name: '金刚碎', path: 'skill/fighter/earthbreak.skl', resolutionStatus: 'resolved' },
      { relation: '技能', id: '169', context: '[at fighter]', name: null, path: null, resolutionStatus: 'missing' },
    ]);
    // Titled as the field it is (the skill id), its job column labelled like [usable job].
    expect(skills[0]?.title).toBe('技能编号');
    const jobs = (await explain(EQU, { section: 'skill data up', occurrence: 0, tokenIndex: 0 })).out.annotations;
    expect(jobs.find((a) => a.tokenIndex === 0 && a.origin === undefined)).toMatchObject({ value: '[fighter]', valueLabel: '格斗家', valueType: 'string' });
  });

  it('the skills: names and types; the command section keeps its tokens', async () => {
    const earthbreak = await explain('skill/fighter/earthbreak.skl');
    expect(find(earthbreak.out.annotations, 'name', 0)).toMatchObject({ value: '金刚碎' });
    expect(find(earthbreak.out.annotations, 'type', 0)).toMatchObject({ value: '[active]', valueLabel: '主动' });
    expect(earthbreak.text).toContain('[command]\n\t{6=`(RIGHT)`}\n\t{8=`,`}\n\t{6=`(UP)`}');
    const phantom = await explain('skill/swordman/phantommastery_modified.skl');
    expect(find(phantom.out.annotations, 'name', 0)).toMatchObject({ value: '御鬼极意' });
    expect(find(phantom.out.annotations, 'type', 0)).toMatchObject({ value: '[passive]', valueLabel: '被动' });
    const test = await explain('skill/fighter/test.skl');
    expect(find(test.out.annotations, 'command key explain', 0).value).toBe('操作指令 : →↑ + Z');
  });

  it('the stackables: rarity and stackable type labelled', async () => {
    const potion = await explain('stackable/test_nostrum_greatvital.stk');
    expect(find(potion.out.annotations, 'rarity', 0)).toMatchObject({ value: '2', valueLabel: '稀有' });
    expect(find(potion.out.annotations, 'stackable type', 0)).toMatchObject({ value: '[waste]', valueLabel: '消耗品' });
    const box = await explain('stackable/2011_championship_pack_at_ft.stk');
    expect(find(box.out.annotations, 'stackable type', 0)).toMatchObject({ value: '[booster selection]', valueLabel: '自选箱' });
    expect(find(box.out.annotations, 'suitable job', 0)).toMatchObject({ valueLabel: '格斗家·男' });
  });

  it('string links: resolved from the .str table named by the real n_string.lst; a missing key is reported, not guessed', async () => {
    const { out, text } = await explain(LINKED_EQU);
    expect(text).toContain('[name]\n\t<3::linked_name`链接之剑`>\n');
    expect(text).toContain('<3::no_such_key``>');
    const name = find(out.annotations, 'name', 0, 'runtime');
    expect(name).toMatchObject({ type: 'placeholder', title: '链接之剑', value: '<3::linked_name>' });
    expect(name.placeholder).toMatchObject({ table: 3, key: 'linked_name', path: 'equipment/equipment.kor.str', resolutionStatus: 'resolved' });
    expect(text.slice(name.range.start, name.range.end)).toBe('<3::linked_name`链接之剑`>');
    expect(find(out.annotations, 'explain', 0, 'runtime').title).toBe('说明：`反引号` 与 > 号');
    expect(find(out.annotations, 'flavor text', 0, 'runtime')).toMatchObject({ title: '未定义', placeholder: { resolutionStatus: 'missing', key: 'no_such_key' } });
    expect(find(out.annotations, 'rarity', 0)).toMatchObject({ value: '3', valueLabel: '神器' });
    const row = (await explain('n_string.lst')).out.annotations.find((a) => a.pathLink);
    expect(row?.pathLink).toMatchObject({ path: 'equipment/equipment.kor.str', resolutionStatus: 'resolved' });
  });

  it('the registries: every row links to its file with the name read from it (through a string link too)', async () => {
    // The id token of each row is the builtin rule builtin.lst.row-id; the links are runtime items.
    const rows = (await explain('equipment/equipment.lst')).out.annotations;
    expect(rows.filter((a) => a.origin === undefined).map((a) => [a.value, a.ruleIds])).toEqual([
      ['102010612', ['builtin.lst.row-id']],
      ['101', ['builtin.lst.row-id']],
    ]);
    const equipment = rows.filter((a) => a.origin === 'runtime').map((a) => a.reference);
    expect(equipment).toEqual([
      { relation: '装备', id: '102010612', context: null, name: '苍穹幕落臂铠', path: EQU, resolutionStatus: 'resolved' },
      { relation: '装备', id: '101', context: null, name: '链接之剑', path: LINKED_EQU, resolutionStatus: 'resolved' },
    ]);
    const skills = (await explain('skill/fighterskill.lst')).out.annotations.filter((a) => a.origin === 'runtime').map((a) => a.reference);
    expect(skills[0]).toEqual({ relation: '技能', id: '169', context: '[fighter]', name: '金刚碎', path: 'skill/fighter/earthbreak.skl', resolutionStatus: 'resolved' });
    const stackables = (await explain('stackable/stackable.lst')).out.annotations.filter((a) => a.origin === 'runtime').map((a) => a.reference?.name);
    expect(stackables).toEqual(['特级生命秘药', '2011格鬥大賽裝扮自選禮盒 (男格鬥)']);
  });

  it('a string table is listed and readable but NOT_A_SCRIPT for explain', async () => {
    const read = await mcp.call('read_file', { workspaceId: 'main', filePath: 'equipment/equipment.kor.str' });
    expect(read.text).toBe('linked_name>链接之剑\nlinked_explain>说明：`反引号` 与 > 号\n');
    const error = await mcp.fail('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision, filePath: 'equipment/equipment.kor.str' });
    expect(error.startsWith('NOT_A_SCRIPT: ')).toBe(true);
  });
});
