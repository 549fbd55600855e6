/**
 * The coverage report of scripts/coverage-rules.ts (`npm run coverage:rules`) as a library call: the
 * builtin layer compiles with no problem at all (warnings included), every id of
 * rules/builtin.coverage.json exists in the layer (a stale map fails), every fact row that is not
 * covered says why, and every file type of the facts table has definitions.
 *
 * That building rules/builtin twice gives the same revision and byte-identical files (and that its
 * validation reports nothing) is test/build/determinism.test.ts ("the builtin layer"); not repeated here.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageReport, formatCoverageReport, main, readCoverageMap, reportPasses, rowExtension, rowTagMatchers, type CoverageReport } from '../../scripts/coverage-rules.js';
import { COVERAGE_MAP } from './helpers.js';

/** The file types of the facts table (pvf-tag-facts.md) §1–§23 that take section rules (.lst, .str, .tbl and .lay only get path notes). */
const FACT_FILE_TYPES = ['.equ', '.stk', '.skl', '.chr', '.mob', '.atk', '.obj', '.act', '.ani', '.als', '.ptl', '.pet', '.ora', '.til', '.npc', '.shp', '.dgn', '.map', '.twn', '.wdm', '.rgn', '.mm', '.qst', '.etc', '.co', '.aic', '.ai', '.key', '.dl'];

let report: CoverageReport;
let tmp: string;

beforeAll(async () => {
  report = await coverageReport();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-coverage-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('coverage report of rules/builtin', () => {
  it('passes: no validation problem (not even a warning), no stale or inconsistent row', () => {
    expect(report.problems).toEqual([]);
    expect(report.stale).toEqual([]);
    expect(report.inconsistent).toEqual([]);
    expect(reportPasses(report)).toBe(true);
  });

  it('every file type of the facts table has definitions; .lst, .str, .tbl, .lay have path notes', () => {
    const types = new Map(report.perType.map((t) => [t.key, t.definitions]));
    for (const ext of FACT_FILE_TYPES) expect(types.get(ext) ?? 0, ext).toBeGreaterThan(0);
    expect(report.global.definitions).toBeGreaterThan(0);
    expect(report.pathRules.definitions).toBeGreaterThan(0);
    const text = formatCoverageReport(report);
    expect(text).toContain('## definitions per file type');
    expect(text).toContain('| .equ |');
    expect(text).toContain('| (global) |');
    expect(text).toContain('| (path) |');
  });

  it('every configured definition cites its sources (a fact row or its own sources) and has a trust state', () => {
    expect(report.unmapped).toEqual([]);
    expect(report.untrusted).toEqual([]);
  });

  it('lists the rows that are not covered, each with its reason, and names every registry', () => {
    expect(report.rows.covered + report.rows.notCovered).toBe(report.rows.total);
    expect(report.notCovered.length).toBe(report.rows.notCovered);
    for (const row of report.notCovered) expect(row.reason, `${row.section} ${row.tag}`).toBeTruthy();
    const text = formatCoverageReport(report);
    for (const row of report.notCovered) expect(text).toContain(`${row.section} ${row.tag}: ${row.reason ?? ''}`);
    const relations = report.relations.map((r) => r.name);
    for (const name of ['装备', '道具', 'apd', '职业', '宠物', '地下城', '商店', 'map', '怪物', '任务', 'npc', '被动对象', '区域', '城镇', '副本接口', '物品', '技能', 'APC']) {
      expect(relations, name).toContain(name);
    }
    expect(report.relations.find((r) => r.name === '物品')?.lists).toBe('union of 装备, 道具');
  });

  it('fails (exit 1) on a map that names an id the layer does not define', async () => {
    const rows = await readCoverageMap(COVERAGE_MAP);
    const stale = [...rows, { section: '99 test', tag: '[nothing]', status: 'covered' as const, ids: ['no.such.rule'] }];
    const file = path.join(tmp, 'stale.coverage.json');
    await writeFile(file, JSON.stringify(stale));
    const staleReport = await coverageReport({ coverageFile: file });
    expect(staleReport.stale.map((s) => s.id)).toEqual(['no.such.rule']);
    expect(reportPasses(staleReport)).toBe(false);
    let out = '';
    let err = '';
    const code = await main(['--map', file], (t) => (out += t), (t) => (err += t));
    expect(code).toBe(1);
    expect(out).toContain('99 test [nothing]: no.such.rule is not defined');
    expect(err).toContain('coverage:rules failed');
    expect(await main([], () => undefined, () => undefined)).toBe(0);
  });
});

describe('reading fact rows', () => {
  it('finds the file type of a row and expands the shorthands of the tag column', () => {
    expect(rowExtension({ section: '§1 .equ', tag: '[name]' })).toBe('.equ');
    expect(rowExtension({ section: '23 other', tag: '.dl [group]' })).toBe('.dl');
    expect(rowExtension({ section: '24 conventions', tag: 'case' })).toBeNull();
    const names = (tag: string, candidates: string[]) => candidates.filter((c) => rowTagMatchers({ tag }).some((m) => m(c)));
    expect(names('[slow/freeze/burn resistance]', ['slow resistance', 'freeze resistance', 'burn resistance', 'slow'])).toEqual(['slow resistance', 'freeze resistance', 'burn resistance']);
    expect(names('`[damage motion 1/2]` `[down motion]`', ['damage motion 1', 'damage motion 2', 'Down Motion'])).toEqual(['damage motion 1', 'damage motion 2', 'Down Motion']);
    expect(names('`[growtype N]`', ['growtype 1', 'growtype 12', 'growtype name'])).toEqual(['growtype 1', 'growtype 12']);
    expect(names('`[targeting * ]`', ['targeting nearest', 'target'])).toEqual(['targeting nearest']);
    expect(names('[FRAMEnnn]', ['FRAME000', 'FRAME MAX'])).toEqual(['FRAME000']);
    expect(names('[if] … [/if] [then] … [/then]', ['if', 'then', '/if'])).toEqual(['if', 'then']);
  });
});
