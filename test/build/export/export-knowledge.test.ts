/**
 * `pvfdoc export` as a library: golden files of both formats from a small layer, the shapes the two
 * editors read (checked here by hand, not with the exporter's own schemas), the text rules, merging
 * with an editor's own files, and the errors.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportKnowledge, type ExportOptions, type ExportResult } from '../../../build/export/export-knowledge.js';
import { PVFUTILITY_FILE_TYPES } from '../../../build/export/pvfutility-format.js';
import { TRUST_LABEL } from '../../../build/export/entry-markdown.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { TRUST_LABEL as SITE_TRUST_LABEL } from '../../../site/src/lib/labels.js';
import { caught } from '../../support/caught.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { EXPORT_LAYER, GOLDEN_EXPORT, PVFUTILITY_COMMENT_KEYS, SITE_URL, vscodeShowsRestAsCode } from './helpers.js';

let bundle: Bundle;

beforeAll(async () => {
  bundle = await compiledBundle([EXPORT_LAYER]);
});

const options = (format: ExportOptions['format'], more: Partial<ExportOptions> = {}): ExportOptions => ({ format, siteUrl: SITE_URL, pvfVersion: null, ...more });

function fileOf(result: ExportResult, name: string): unknown {
  const file = result.files.find((f) => f.path === name);
  if (!file) throw new Error(`no ${name} in ${result.files.map((f) => f.path).join(', ')}`);
  return JSON.parse(file.text) as unknown;
}

interface Comment {
  PvfCommentType: string;
  Section: string;
  Title: string;
  Comment: string;
  Closing: boolean;
  [key: string]: unknown;
}
interface Tag {
  name: string;
  description: string;
  closing?: boolean;
  [key: string]: unknown;
}

const comments = (result: ExportResult, ext: string) => (fileOf(result, `${ext}.json`) as { Comments: Comment[] }).Comments;
const tags = (result: ExportResult, ext: string) => (fileOf(result, `${ext}.json`) as { tags: Tag[] }).tags;

describe('golden files', () => {
  for (const format of ['pvfutility', 'vscode-scripttags'] as const) {
    it(`${format}: every file and the summary match test/golden/export/${format}/`, async () => {
      const result = exportKnowledge(bundle, options(format));
      expect(result.files.length).toBeGreaterThan(0);
      for (const file of result.files) await expect(file.text).toMatchFileSnapshot(path.join(GOLDEN_EXPORT, format, file.path));
      const summary = { files: result.files.map(({ text: _text, ...f }) => f), skipped: result.skipped, leftOut: result.leftOut };
      await expect(`${JSON.stringify(summary, null, 2)}\n`).toMatchFileSnapshot(path.join(GOLDEN_EXPORT, format, 'summary.json'));
    });
  }
});

describe('pvfutility: the shape pvfUtility reads (Options/PvfComments/<ext>.json)', () => {
  it('one file per file type: SchemaVersion 1, its FileType, comments of type Section with every field typed', () => {
    const result = exportKnowledge(bundle, options('pvfutility'));
    expect(result.files.map((f) => f.path)).toEqual(['equ.json', 'etc.json', 'qst.json', 'stk.json']);
    for (const file of result.files) {
      expect(file.text.charCodeAt(0)).not.toBe(0xfeff);
      const json = JSON.parse(file.text) as Record<string, unknown>;
      expect(Object.keys(json)).toEqual(['SchemaVersion', 'FileType', 'Comments']);
      expect(json.SchemaVersion).toBe(1);
      expect(json.FileType).toBe(file.ext);
      expect(PVFUTILITY_FILE_TYPES.has(file.ext)).toBe(true);
      const list = json.Comments as Record<string, unknown>[];
      expect(list.length).toBe(file.tags);
      for (const c of list) {
        for (const key of Object.keys(c)) expect(PVFUTILITY_COMMENT_KEYS.has(key)).toBe(true);
        expect(c.PvfCommentType).toBe('Section');
        expect(c.FileType).toBe(file.ext);
        expect(typeof c.Section === 'string' && c.Section !== '' && !/[[\]`]/.test(c.Section)).toBe(true);
        expect(typeof c.Title).toBe('string');
        expect(typeof c.Comment).toBe('string');
        expect(typeof c.Closing).toBe('boolean');
        expect(c.Authors).toBe('pvfdoc (export)');
      }
      // The app looks sections up ignoring case: one entry per name.
      const keys = list.map((c) => String(c.Section).toLowerCase());
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('leaves out file types pvfUtility has no FileType for, and says so', () => {
    const result = exportKnowledge(bundle, options('pvfutility'));
    expect(result.skipped).toEqual([{ ext: 'til', tags: 2, reason: expect.stringContaining('no file type "til"') }]);
    expect(exportKnowledge(bundle, options('vscode-scripttags')).files.map((f) => f.path)).toContain('til.json');
  });

  it('keeps backtick strings as code and escapes what Markdig would read', () => {
    const job = comments(exportKnowledge(bundle, options('pvfutility')), 'equ').find((c) => c.Section === 'usable job');
    expect(job?.Title).toBe('可用职业');
    expect(job?.Comment).toContain('写 `[swordman]`、`[fighter]` 等');
    expect(job?.Comment).toContain('\\<int> 不是占位符，1\\~5 只是范围，a\\*b 不是强调');
    expect(job?.Comment).toContain('  \n\\- 这一行以短横线开头  \n');
    expect(job?.Comment).toContain('effect.ani');
  });
});

describe('vscode-scripttags: the shape pvf-parser-ts reads (scriptTags/<ext>.json)', () => {
  it('{ tags: [{ name, description, closing? }] }, names without brackets and unique ignoring case', () => {
    const result = exportKnowledge(bundle, options('vscode-scripttags'));
    for (const file of result.files) {
      const json = JSON.parse(file.text) as Record<string, unknown>;
      expect(Object.keys(json)).toEqual(['tags']);
      const list = json.tags as Record<string, unknown>[];
      for (const t of list) {
        expect(typeof t.name === 'string' && t.name !== '' && !/[[\]]/.test(t.name)).toBe(true);
        expect(typeof t.description).toBe('string');
        if ('closing' in t) expect(t.closing).toBe(true);
        expect(Object.keys(t).every((k) => ['name', 'description', 'closing', 'authors'].includes(k))).toBe(true);
      }
      const keys = list.map((t) => String(t.name).toLowerCase());
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('no description makes the extension show its lines as code (which would turn the links into text)', () => {
    const result = exportKnowledge(bundle, options('vscode-scripttags'));
    const all = result.files.flatMap((f) => (JSON.parse(f.text) as { tags: Tag[] }).tags);
    expect(all.filter((t) => vscodeShowsRestAsCode(t.description)).map((t) => t.name)).toEqual([]);
    // The check itself fires on what the rules say: the raw content would have been shown as code.
    expect(vscodeShowsRestAsCode('标题\n写 `[swordman]`')).toBe(true);
    const job = tags(result, 'equ').find((t) => t.name === 'usable job');
    expect(job?.description.split('\n')[0]).toBe('可用职业');
    expect(job?.description).toContain('写 「[swordman]」、「[fighter]」 等');
    expect(job?.description).toContain('effect.\u200bani');
    expect(job?.description).toContain(`[参考站](${SITE_URL}doc/`);
  });
});

describe('what an entry says', () => {
  it('title, summary, value meanings (enum values, fixed values, columns, references, paths), trust and the link', () => {
    const result = exportKnowledge(bundle, options('pvfutility'));
    const equ = comments(result, 'equ');
    const job = equ.find((c) => c.Section === 'usable job')?.Comment ?? '';
    expect(job).toContain('可信度：已确认');
    expect(job).toContain('- **职业**（第 0 个 token）：职业标签。');
    expect(job).toContain('取值：`[swordman]` = 鬼剑士、`[fighter]` = 格斗家、`[all]` = 全部');
    expect(job).toContain('特殊值：`-1` = 不限职业');
    expect(job).toContain('可信度：较可信');
    expect(equ.find((c) => c.Section === 'item')?.Comment).toContain('引用：物品（在 `equipment/equipment.lst`、`list/equipment.lst` 中查找）');
    expect(equ.find((c) => c.Section === 'icon')?.Comment).toContain('文件路径，相对于 `sprite/`');
    const part = equ.find((c) => c.Section === 'part')?.Comment ?? '';
    expect(part).toContain('`23` = 部位23…（共 26 个，完整列表见参考站）');
    expect(part).not.toContain('部位24');
    const entry = comments(result, 'etc').find((c) => c.Section === 'entry')?.Comment ?? '';
    expect(entry).toContain('各列：1. 物品；2. 数量；3. 第3列');
    expect(entry).toContain('{record}、{column} 是从 1 数起的记录号、列号');
    expect(entry).toContain('仅路径 `etc/drop/**`');
    // A rule chosen by another section's value (target.when) says in which files it applies.
    expect(comments(result, 'qst').find((c) => c.Section === 'int data')?.Comment).toContain('仅当 [type] 第 0 个为 `[seeking]`');
    const vscode = tags(exportKnowledge(bundle, options('vscode-scripttags')), 'qst').find((t) => t.name === 'int data')?.description;
    expect(vscode).toContain('仅当 [type] 第 0 个为 「[seeking]」');
    // A countedGroups rule names its group, not a plain token index.
    expect(comments(result, 'stk').find((c) => c.Section === 'int data')?.Comment).toContain('（第 2 组（共 3 组，每组先写条数）每条记录的第 0 个 token，每条 2 个）');
    // A variableRecords rule says how the records are cut and which ones it takes.
    expect(equ.find((c) => c.Section === 'avatar select ability')?.Comment).toContain('（变宽记录（每条 3 个；首个为 [SKILL_LEVEL] 的 4 个）：首个为 [SKILL_LEVEL] 的记录的第 2 个 token）');
    for (const c of [...equ, ...comments(result, 'etc')]) expect(c.Comment).toMatch(new RegExp(`\\[参考站\\]\\(${SITE_URL}doc/[0-9a-z_]+/\\)`));
  });

  it('rules of no file type join every file type and say so; version-only rules say which version', () => {
    const result = exportKnowledge(bundle, options('vscode-scripttags'));
    for (const ext of ['equ', 'etc', 'til']) {
      expect(tags(result, ext).find((t) => t.name === 'cool time')?.description).toContain('适用于所有文件类型');
    }
    expect(tags(result, 'equ').find((t) => t.name === 'minimum level')?.description).toContain('仅 110US');
  });

  it('closing only where the rules show a closing tag: a named parent, unless a rendering rule nests without one', () => {
    const etc = tags(exportKnowledge(bundle, options('vscode-scripttags')), 'etc');
    expect(etc.find((t) => t.name === 'reward block')?.closing).toBe(true);
    expect(etc.find((t) => t.name === 'drop list')).not.toHaveProperty('closing');
    expect(etc.find((t) => t.name === 'value')).not.toHaveProperty('closing');
    const pu = comments(exportKnowledge(bundle, options('pvfutility')), 'etc');
    expect(pu.find((c) => c.Section === 'reward block')?.Closing).toBe(true);
    expect(pu.find((c) => c.Section === 'drop list')?.Closing).toBe(false);
  });

  it('counts the rules with no tag to hover', () => {
    expect(exportKnowledge(bundle, options('pvfutility')).leftOut).toEqual({ path: 1, sectionPattern: 1, topLevel: 1, badExtension: 0 });
  });

  it('without --site-url there are no links; with --pvf-version only that version\'s rules', () => {
    const plain = exportKnowledge(bundle, options('pvfutility', { siteUrl: null }));
    expect(plain.files.every((f) => !f.text.includes('参考站') && !f.text.includes('http'))).toBe(true);
    const v90 = exportKnowledge(bundle, options('pvfutility', { pvfVersion: '90US' }));
    expect(comments(v90, 'equ').map((c) => c.Section)).not.toContain('minimum level');
    expect(comments(exportKnowledge(bundle, options('pvfutility', { pvfVersion: '110US' })), 'equ').map((c) => c.Section)).toContain('minimum level');
  });

  it('uses the site\'s trust labels', () => {
    expect(TRUST_LABEL).toEqual(SITE_TRUST_LABEL);
  });

  it('is deterministic', () => {
    const a = exportKnowledge(bundle, options('vscode-scripttags'));
    const b = exportKnowledge(bundle, options('vscode-scripttags'));
    expect(a.files.map((f) => f.text)).toEqual(b.files.map((f) => f.text));
  });
});

describe('--base: merging with the editor\'s own files', () => {
  it('vscode: keeps the tags pvfdoc has nothing on, and the base\'s spelling and closing of the ones it knows', () => {
    const base = new Map([
      ['etc.json', JSON.stringify({ tags: [{ name: 'DROP LIST', description: 'old text', closing: true }, { name: 'only here', description: 'theirs', closing: true }] })],
    ]);
    const result = exportKnowledge(bundle, options('vscode-scripttags'), base);
    const etc = tags(result, 'etc');
    expect(etc[0]).toEqual({ name: 'DROP LIST', description: expect.stringContaining('掉落表'), closing: true, authors: 'pvfdoc (export)' });
    expect(etc[1]).toEqual({ name: 'only here', description: 'theirs', closing: true });
    expect(etc.map((t) => t.name.toLowerCase())).toContain('reward block');
    expect(result.files.find((f) => f.path === 'etc.json')?.kept).toBe(1);
  });

  it('pvfutility: replaces Title, Comment and Authors of known sections, keeps Closing, OfficialDescription, String comments and the rest', () => {
    const base = new Map([
      [
        'equ.json',
        `\uFEFF${JSON.stringify({
          SchemaVersion: 1,
          FileType: 'equ',
          Comments: [
            { PvfCommentType: 'Section', FileType: 'equ', Section: '[Usable Job]', Title: 'old', Comment: 'old', OfficialDescription: '#### 官方示例', Closing: true, Authors: 'someone', Id: 0 },
            { PvfCommentType: 'String', FileType: 'equ', Section: 'usable job', Title: 'a string', Comment: 'kept', Closing: false },
            { PvfCommentType: 'Section', FileType: 'equ', Section: 'mine', Title: 'mine', Comment: 'mine', Closing: false },
          ],
        })}`,
      ],
    ]);
    const list = comments(exportKnowledge(bundle, options('pvfutility'), base), 'equ');
    expect(list[0]).toMatchObject({ Section: '[Usable Job]', Title: '可用职业', OfficialDescription: '#### 官方示例', Closing: true, Authors: 'pvfdoc (export)', Id: 0 });
    expect(list[0]?.Comment).toContain('可装备的职业列表');
    expect(list[1]).toMatchObject({ PvfCommentType: 'String', Comment: 'kept' });
    expect(list[2]).toMatchObject({ Section: 'mine', Comment: 'mine' });
    expect(list.filter((c) => c.Section.toLowerCase().includes('usable job') && c.PvfCommentType === 'Section')).toHaveLength(1);
  });

  it('a base file that is not JSON, or not of the format, is refused naming the file', () => {
    const notJson = caught(() => exportKnowledge(bundle, options('vscode-scripttags'), new Map([['equ.json', '{ nope']])));
    expect(notJson.code).toBe('INVALID_ARGUMENT');
    expect(notJson.message).toContain('equ.json is not JSON');
    const wrong = caught(() => exportKnowledge(bundle, options('vscode-scripttags'), new Map([['equ.json', JSON.stringify({ SchemaVersion: 1, FileType: 'equ', Comments: [] })]])));
    expect(wrong.code).toBe('INVALID_ARGUMENT');
    expect(wrong.message).toMatch(/equ\.json is not a pvf-parser-ts tag file.*\$\.tags/);
    expect(wrong.hint).toContain('--format');
  });
});

describe('errors', () => {
  it('an unknown client version, a site URL that is not http(s)', () => {
    const version = caught(() => exportKnowledge(bundle, options('pvfutility', { pvfVersion: '70KR' })));
    expect(version.code).toBe('INVALID_VERSION');
    expect(version.hint).toContain('90US, 90CN, 110US');
    for (const siteUrl of ['not a url', 'file:///tmp/site/']) {
      const error = caught(() => exportKnowledge(bundle, options('pvfutility', { siteUrl })));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('--site-url');
    }
  });

  it('a site URL without the trailing slash still links below it', () => {
    const text = exportKnowledge(bundle, options('pvfutility', { siteUrl: 'https://example.org/pvfdoc' })).files[0]?.text ?? '';
    expect(text).toContain('https://example.org/pvfdoc/doc/');
  });
});

describe('library use', () => {
  it('options of the wrong shape are an INVALID_ARGUMENT, not a crash', () => {
    const error = caught(() => exportKnowledge(bundle, { format: 'sublime', siteUrl: null, pvfVersion: null } as unknown as ExportOptions));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('$.format');
  });
});
