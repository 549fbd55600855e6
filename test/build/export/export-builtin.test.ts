/**
 * The export of the real builtin layer: its notes hold backtick strings, `.ani` paths, `<int>`
 * placeholders and ranges, so this is where the editors' rendering rules are tried on real text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exportKnowledge, type ExportResult } from '../../../build/export/export-knowledge.js';
import { PvfUtilityCommentFileSchema } from '../../../build/export/pvfutility-format.js';
import { ScriptTagsFileSchema } from '../../../build/export/vscode-scripttags-format.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { builtinBundle } from '../../builtin/helpers.js';
import { SITE_URL, vscodeShowsRestAsCode } from './helpers.js';

let bundle: Bundle;
let pvfutility: ExportResult;
let vscode: ExportResult;

beforeAll(async () => {
  bundle = await builtinBundle();
  pvfutility = exportKnowledge(bundle, { format: 'pvfutility', siteUrl: SITE_URL, pvfVersion: null });
  vscode = exportKnowledge(bundle, { format: 'vscode-scripttags', siteUrl: SITE_URL, pvfVersion: null });
}, 120_000);

describe('export of rules/builtin', () => {
  it('every section and token rule of a file type reaches that type\'s files', () => {
    const tagsByExt = new Map(vscode.files.map((f) => [f.ext, new Set(ScriptTagsFileSchema.parse(JSON.parse(f.text)).tags.map((t) => t.name.toLowerCase()))]));
    const effective = new Set(Object.values(bundle.ruleOrder).flat());
    let checked = 0;
    for (const doc of bundle.documents) {
      const t = doc.resolved.target;
      if (!effective.has(doc.documentId) || t.kind === 'path' || t.sectionPattern !== null || t.topLevel || t.section === null) continue;
      for (const e of doc.resolved.match.extensions) {
        expect(tagsByExt.get(e.slice(1).toLowerCase())?.has(t.section.trim().toLowerCase()), `${doc.id} in ${e}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('vscode: no description falls into the extension\'s code-block rendering, and every one links', () => {
    for (const file of vscode.files) {
      for (const tag of ScriptTagsFileSchema.parse(JSON.parse(file.text)).tags) {
        expect(vscodeShowsRestAsCode(tag.description ?? ''), `${file.path} [${tag.name}]`).toBe(false);
        expect(tag.description).toContain(`](${SITE_URL}doc/`);
      }
    }
  });

  it('pvfutility: every file is a comment file of a known type; no unescaped "<" reaches Markdig', () => {
    expect(pvfutility.files.length).toBeGreaterThan(25);
    for (const file of pvfutility.files) {
      const parsed = PvfUtilityCommentFileSchema.parse(JSON.parse(file.text));
      expect(parsed.FileType).toBe(file.ext);
      for (const c of parsed.Comments) {
        // Outside inline code, every "<" is escaped, so a placeholder such as <int> is never read as HTML.
        const outsideCode = (c.Comment ?? '').replace(/(`+)[\s\S]*?\1/g, '');
        expect(/(^|[^\\])</.test(outsideCode), `${file.path} [${c.Section}]`).toBe(false);
      }
    }
  });
});
