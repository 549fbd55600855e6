/**
 * The real samples of test/fixtures/samples (see PROVENANCE.md there) explained with the builtin
 * rules (issue 5, "Must show"): a golden per sample in test/golden/builtin/samples/, and the check
 * that "every section in them that the facts table documents is annotated, and nothing is annotated
 * that the facts do not support", through the coverage map (rules/builtin.coverage.json):
 *
 * - a section is *documented* for a file type when a fact row of that type's table names it in its
 *   tag column or one of the row's rules targets it, or when any fact row names a rule for that file
 *   type (by extension) that targets it (e.g. the §1 row `[item group name]`, which says stackables
 *   use it too); it is *covered* when such a row is covered;
 * - every occurrence of a covered section carries at least one annotation (on its tag or a token);
 * - every rule id of every annotation is named by the coverage map (comes from a documented fact
 *   row), and a rule of another file type's row may only annotate here when it is a global rule (no
 *   extension, no glob: pvfine's "any file" rules) or matches this file's extension.
 *
 * Each golden ends with a per-section table (documented / covered / annotations), which is where
 * the gaps the samples show are listed. The samples are explained at a 90US-layout path without a
 * workspace: references show which relation and context they would use (`unsupported`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import { annotateScript, pathContext, type ExplainAnnotation } from '../../runtime/explain/annotate-script.js';
import { listSections } from '../../runtime/script/parse-script-view.js';
import { readCoverageMap, rowExtension, rowTagMatchers, type CoverageRow } from '../../scripts/coverage-rules.js';
import { builtinBundle, COVERAGE_MAP, extensionOf, formatGolden, GOLDEN_ROOT, SAMPLES_ROOT } from './helpers.js';

/** Sample (under test/fixtures/samples) → the archive path it is explained at (90US layout). */
const SAMPLES: [sample: string, archivePath: string][] = [
  ['godof/test/102010612.equ', 'equipment/character/fighter/weapon/102010612.equ'],
  ['godof/test/earthbreak.skl', 'skill/fighter/earthbreak.skl'],
  ['godof/test/test.skl', 'skill/fighter/test.skl'],
  ['DNF-PVF-file-Reference/修改后的模组文件/phantommastery_modified.skl', 'skill/swordman/phantommastery_modified.skl'],
  ['DNF-PVF-file-Reference/格式规范工具/test_nostrum_greatvital.stk', 'stackable/test_nostrum_greatvital.stk'],
  ['pvfVSCode/src/samples/2011_championship_pack_at_ft.stk', 'stackable/2011_championship_pack_at_ft.stk'],
  ['pvfVSCode/src/samples/n_string.lst', 'n_string.lst'],
];

let bundle: Bundle;
let rows: CoverageRow[];

beforeAll(async () => {
  bundle = await builtinBundle();
  rows = await readCoverageMap(COVERAGE_MAP);
});

interface SectionFinding {
  section: string;
  occurrence: number;
  /** Fact rows of the file's type that document the section. */
  documentedBy: CoverageRow[];
  annotations: ExplainAnnotation[];
}

/** Whether a (covered or not) row documents a section name: by its tag column or by one of its rules' targets. */
function documents(row: CoverageRow, section: string, targets: Map<string, string | null>): boolean {
  if (rowTagMatchers(row).some((m) => m(section))) return true;
  return row.ids.some((id) => (targets.get(id) ?? '').toLowerCase() === section.toLowerCase());
}

function ruleTargets(b: Bundle): Map<string, string | null> {
  return new Map(b.documents.map((d) => [d.id, d.resolved.target.section]));
}

/** Ids of the rules (and fields) written for this extension. */
function extensionRuleIds(b: Bundle, ext: string): Set<string> {
  return new Set(b.documents.filter((d) => d.match.extensions.some((e) => e.toLowerCase() === ext)).map((d) => mapId(d.id)));
}

/** Global rules: for every file (no extension, no glob) and not path notes. */
function globalRuleIds(b: Bundle): Set<string> {
  return new Set(b.documents.filter((d) => d.match.extensions.length === 0 && d.match.glob === '' && d.resolved.target.kind !== 'path').map((d) => d.id));
}

/** `field:x` is the implicit rule of field `x`, which the map names as `x`. */
function mapId(id: string): string {
  return id.startsWith('field:') ? id.slice('field:'.length) : id;
}

describe('the real samples of test/fixtures/samples', () => {
  it.each(SAMPLES)('%s', async (sample, archivePath) => {
    const text = readFileSync(path.join(SAMPLES_ROOT, sample), 'utf8');
    const ext = extensionOf(archivePath);
    const result = annotateScript({ bundle, versionKey: '90US', filePath: archivePath, text });
    const targets = ruleTargets(bundle);
    const globals = globalRuleIds(bundle);
    const ownRules = extensionRuleIds(bundle, ext);
    const typeRows = rows.filter((r) => rowExtension(r) === ext);
    // Rows of other tables that name a rule written for this extension (their ids restricted to those rules).
    const borrowedRows = rows
      .filter((r) => rowExtension(r) !== ext)
      .map((r) => ({ ...r, ids: r.ids.filter((id) => ownRules.has(mapId(id))) }))
      .filter((r) => r.ids.length > 0);
    const allMapped = new Set(rows.flatMap((r) => r.ids).map(mapId));

    // Sections present, with the fact rows documenting them and the annotations inside them.
    const findings: SectionFinding[] = listSections(result.view).map((s) => ({
      section: s.name,
      occurrence: s.occurrence,
      documentedBy: [
        ...typeRows.filter((r) => documents(r, s.name, targets)),
        ...borrowedRows.filter((r) => r.ids.some((id) => (targets.get(id) ?? '').toLowerCase() === s.name.toLowerCase())),
      ],
      annotations: result.annotations.filter((a) => a.section?.toLowerCase() === s.name.toLowerCase() && a.occurrence === s.occurrence),
    }));

    // 1. Every occurrence of a covered section is annotated.
    const unannotated = findings.filter((f) => f.documentedBy.some((r) => r.status === 'covered') && f.annotations.length === 0);
    expect(unannotated.map((f) => `[${f.section}]#${f.occurrence}`), 'documented and covered sections without any annotation').toEqual([]);

    // 2. Nothing is annotated by a rule no fact row of this file type (or a global fact) names.
    const unsupported = result.annotations.flatMap((a) =>
      a.ruleIds.filter((id) => !allMapped.has(mapId(id)) || !(globals.has(id) || ownRules.has(mapId(id)))).map((id) => `${id} on [${a.section}]#${a.occurrence}`),
    );
    expect(unsupported, 'annotations from rules that no fact row supports').toEqual([]);

    const sectionLines = findings.map((f) => {
      const covered = f.documentedBy.filter((r) => r.status === 'covered');
      const state =
        covered.length > 0
          ? `documented, covered (${covered.map((r) => r.tag).join(' | ')})`
          : f.documentedBy.length > 0
            ? `documented, NOT covered (${f.documentedBy.map((r) => r.reason ?? r.tag).join(' | ')})`
            : `not in the ${ext} facts table`;
      const ids = [...new Set(f.annotations.flatMap((a) => a.ruleIds))];
      const annotated = f.annotations.length === 0 ? 'no annotation' : `${f.annotations.length} annotation(s): ${ids.join(', ')}`;
      return `[${f.section}]#${f.occurrence}  ${state}  →  ${annotated}`;
    });
    const golden = path.join(GOLDEN_ROOT, 'samples', `${path.posix.basename(sample, extensionOf(sample))}.explain.txt`);
    await expect(
      formatGolden({
        title: [`real sample ${sample} (test/fixtures/samples, see PROVENANCE.md)`, `explained as ${archivePath}, version "90US", no workspace (references unresolved)`],
        text: result.view.text,
        annotations: result.annotations.map(({ content, origin: _rule, ...a }) => ({ ...a, summary: content })),
        warnings: result.warnings,
        pathContext: pathContext(bundle, '90US', archivePath),
        extra: [{ heading: `sections (facts table of ${ext}, coverage map)`, lines: sectionLines }],
      }),
    ).toMatchFileSnapshot(golden);
  });
});
