/**
 * Coverage report of the builtin layer (issue 5, "Must show": a coverage report).
 *
 *   npm run coverage:rules            # rules/builtin + rules/builtin.coverage.json
 *   tsx scripts/coverage-rules.ts --layer <dir> --map <coverage.json>
 *
 * Compiles the layer, then prints: definitions per file type (by `match.extensions`; global rules and
 * path rules separately), enum values, relations, and the fact rows of
 * ../shared/docs/pvf-tag-facts.md that no definition covers, with the reason recorded in the coverage
 * map. Exits 1 when the layer does not compile cleanly (any problem, warnings included) or when the
 * coverage map names an id the layer does not define (a stale map).
 *
 * The coverage map (rules/builtin.coverage.json) has one entry per fact row: `section` (the facts
 * table's heading, e.g. "§1 .equ"), `tag` (the row's tag column), `status` ("covered" with the `ids`
 * of the rules and fields that cover it, or "not-covered" with a `reason`). Ids are rule ids, field ids
 * or the implicit rule ids of fields (`field:<fieldId>`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { compileLayers } from '../build/compile-layers.js';
import type { Problem } from '../build/problems.js';
import { openBuiltBundle, type Bundle } from '../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../runtime/bundle/schema.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DEFAULT_LAYER = path.join(ROOT, 'rules/builtin');
export const DEFAULT_COVERAGE_MAP = path.join(ROOT, 'rules/builtin.coverage.json');

export const CoverageRowSchema = z.strictObject({
  section: z.string().min(1),
  tag: z.string().min(1),
  status: z.enum(['covered', 'not-covered']),
  ids: z.array(z.string().min(1)),
  reason: z.string().min(1).optional(),
});
export const CoverageMapSchema = z.array(CoverageRowSchema);
export type CoverageRow = z.output<typeof CoverageRowSchema>;

export async function readCoverageMap(file: string): Promise<CoverageRow[]> {
  return CoverageMapSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

/** The file type a fact row belongs to: the first `.ext` of its heading, else of its tag ("23 other"). */
export function rowExtension(row: Pick<CoverageRow, 'section' | 'tag'>): string | null {
  const found = /\.([a-z]+)\b/i.exec(row.section) ?? /^\.([a-z]+)\b/i.exec(row.tag);
  return found ? `.${(found[1] ?? '').toLowerCase()}` : null;
}

/**
 * Section-name tests for the tags a fact row names in its tag column: every `[name]`, with the
 * facts' shorthands expanded — `[slow/freeze/… resistance]` (one suffix for all), `[damage motion 1/2]`
 * (one prefix for all), `[growtype N]`/`[awakening N]` (any number), `[creature * ]`/`[targeting * ]`
 * (any continuation), `[FRAMEnnn]` (three digits). Names compare case-insensitively.
 */
export function rowTagMatchers(row: Pick<CoverageRow, 'tag'>): ((section: string) => boolean)[] {
  const out: ((section: string) => boolean)[] = [];
  for (const found of row.tag.replaceAll('`', '').matchAll(/\[([^\]]+)\]/g)) {
    const inner = (found[1] ?? '').trim().toLowerCase();
    if (inner.startsWith('/')) continue;
    if (/ n$/.test(inner)) {
      const prefix = inner.slice(0, -1);
      out.push((s) => new RegExp(`^${escapeRegExp(prefix)}\\d+$`).test(s.toLowerCase()));
    } else if (inner.endsWith('*')) {
      const prefix = inner.slice(0, -1);
      out.push((s) => s.toLowerCase().startsWith(prefix));
    } else if (inner === 'framennn') {
      out.push((s) => /^frame\d{3}$/i.test(s));
    } else if (inner.includes('/')) {
      const parts = inner.split('/').map((p) => p.trim());
      const last = parts[parts.length - 1] ?? '';
      const first = parts[0] ?? '';
      let names: string[];
      if (last.includes(' ') && !first.includes(' ')) {
        const suffix = last.slice(last.indexOf(' '));
        names = parts.map((p, i) => (i === parts.length - 1 ? p : `${p}${suffix}`));
      } else if (first.includes(' ') && !last.includes(' ')) {
        const prefix = first.slice(0, first.lastIndexOf(' ') + 1);
        names = parts.map((p, i) => (i === 0 ? p : `${prefix}${p}`));
      } else {
        names = parts;
      }
      for (const name of names) out.push((s) => s.toLowerCase() === name);
    } else {
      out.push((s) => s.toLowerCase() === inner);
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every id a coverage map may name: rule ids, field ids, implicit field rule ids. */
export function definedIds(bundle: Bundle): Set<string> {
  return new Set(bundle.documents.map((d) => d.id));
}

/** Ids the map names that the layer does not define. */
export function staleIds(rows: readonly CoverageRow[], ids: ReadonlySet<string>): { row: CoverageRow; id: string }[] {
  return rows.flatMap((row) => row.ids.filter((id) => !ids.has(id)).map((id) => ({ row, id })));
}

/** Map rows whose status does not agree with their ids (covered without ids, not covered without a reason). */
export function inconsistentRows(rows: readonly CoverageRow[]): CoverageRow[] {
  return rows.filter((r) => (r.status === 'covered' ? r.ids.length === 0 : r.ids.length > 0 || r.reason === undefined));
}

export interface TypeCounts {
  /** ".equ", "(global)", "(path)". */
  key: string;
  definitions: number;
  sectionNotes: number;
  tokens: number;
  records: number;
  enums: number;
  enumValues: number;
  references: number;
  images: number;
  pathLinks: number;
  versionRestricted: number;
}

export interface CoverageReport {
  rulesRevision: string;
  counts: { rules: number; fields: number; generatedRules: number; enumValues: number; relations: number; renderingRules: number; effectiveByVersion: Record<string, number> };
  perType: TypeCounts[];
  global: TypeCounts;
  pathRules: TypeCounts;
  relations: { name: string; kind: string; lists: string }[];
  rows: { total: number; covered: number; notCovered: number };
  notCovered: CoverageRow[];
  stale: { row: CoverageRow; id: string }[];
  inconsistent: CoverageRow[];
  /**
   * Configured definitions (rules and fields) that cite nothing: no row of the map names them and
   * they carry no `sources` of their own.
   */
  unmapped: string[];
  /** Configured definitions without a `trust` state. */
  untrusted: string[];
  problems: Problem[];
}

function isPathRule(doc: BundleDocument): boolean {
  return doc.resolved.target.kind === 'path';
}

function emptyCounts(key: string): TypeCounts {
  return { key, definitions: 0, sectionNotes: 0, tokens: 0, records: 0, enums: 0, enumValues: 0, references: 0, images: 0, pathLinks: 0, versionRestricted: 0 };
}

function addTo(counts: TypeCounts, doc: BundleDocument): void {
  const { target, annotation } = doc.resolved;
  counts.definitions++;
  if (target.kind === 'section') counts.sectionNotes++;
  if (target.kind === 'token') counts.tokens++;
  if ((target.recordTokens ?? 0) > 0 || (target.countedGroups !== null && !target.countedGroups.count) || target.variableRecords !== null) counts.records++;
  if (annotation.type === 'enum') {
    counts.enums++;
    counts.enumValues += doc.valueCount;
  }
  if (annotation.type === 'reference') counts.references++;
  if (annotation.type === 'image') counts.images++;
  if (annotation.type === 'path') counts.pathLinks++;
  if (doc.pvfVersions.length > 0) counts.versionRestricted++;
}

/** Compiles the layer and compares it with the coverage map. Throws when the layer does not compile. */
export async function coverageReport(options: { layerDir?: string; coverageFile?: string } = {}): Promise<CoverageReport> {
  const layerDir = options.layerDir ?? DEFAULT_LAYER;
  const result = await compileLayers([layerDir]);
  if (!result.ok) throw new Error(`${layerDir} does not compile:\n${result.problems.map((p) => `${p.severity} ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
  const bundle = openBuiltBundle(result.bundle.files);
  const rows = await readCoverageMap(options.coverageFile ?? DEFAULT_COVERAGE_MAP);

  const configured = bundle.documents.filter((d) => d.origin === 'configured');
  const byType = new Map<string, TypeCounts>();
  const global = emptyCounts('(global)');
  const pathRules = emptyCounts('(path)');
  for (const doc of configured) {
    if (isPathRule(doc)) {
      addTo(pathRules, doc);
      continue;
    }
    const extensions = [...new Set(doc.match.extensions.map((e) => e.toLowerCase()))];
    if (extensions.length === 0) {
      addTo(doc.match.glob === '' ? global : byTypeEntry(byType, '(glob only)'), doc);
      continue;
    }
    for (const ext of extensions) addTo(byTypeEntry(byType, ext), doc);
  }

  const named = new Set(rows.flatMap((r) => r.ids).map((id) => (id.startsWith('field:') ? id.slice('field:'.length) : id)));
  const manifest = bundle.manifest;
  return {
    rulesRevision: bundle.rulesRevision,
    counts: {
      rules: manifest.counts.rules,
      fields: manifest.counts.fields,
      generatedRules: manifest.counts.generatedRules,
      enumValues: manifest.counts.enumValues,
      relations: manifest.counts.relations,
      renderingRules: manifest.counts.renderingRules,
      effectiveByVersion: manifest.counts.effectiveByVersion,
    },
    perType: [...byType.values()].sort((a, b) => b.definitions - a.definitions || a.key.localeCompare(b.key)),
    global,
    pathRules,
    relations: bundle.relations.map((r) => ({
      name: r.name,
      kind: r.kind,
      lists: r.kind === 'union' ? `union of ${(r.members ?? []).join(', ')}` : r.kind === 'contextual' ? `${(r.contextPaths ?? []).length} contexts: ${(r.contextPaths ?? []).map(([k, v]) => `${k}→${v}`).join(', ')}` : (r.listPath ?? ''),
    })),
    rows: { total: rows.length, covered: rows.filter((r) => r.status === 'covered').length, notCovered: rows.filter((r) => r.status === 'not-covered').length },
    notCovered: rows.filter((r) => r.status === 'not-covered'),
    stale: staleIds(rows, definedIds(bundle)),
    inconsistent: inconsistentRows(rows),
    unmapped: configured.filter((d) => !named.has(d.id) && d.sources.length === 0).map((d) => `${d.kind === 'field' ? 'field ' : ''}${d.id}`),
    untrusted: configured.filter((d) => d.trust === null).map((d) => `${d.kind === 'field' ? 'field ' : ''}${d.id}`),
    problems: result.problems,
  };
}

function byTypeEntry(map: Map<string, TypeCounts>, key: string): TypeCounts {
  let entry = map.get(key);
  if (!entry) {
    entry = emptyCounts(key);
    map.set(key, entry);
  }
  return entry;
}

/** The report as Markdown-ish text (docs/builtin-layer.md quotes its tables). */
export function formatCoverageReport(report: CoverageReport): string {
  const out: string[] = [];
  const c = report.counts;
  out.push(`# builtin layer coverage (rulesRevision ${report.rulesRevision})`, '');
  out.push(`rules ${c.rules}, fields ${c.fields} (implicit field rules ${c.generatedRules}), enum values ${c.enumValues}, relations ${c.relations}, rendering rules ${c.renderingRules}`);
  out.push(`effective definitions per version: ${Object.entries(c.effectiveByVersion).map(([v, n]) => `${v === '' ? '(unknown)' : v} ${n}`).join(', ')}`);
  out.push('', '## definitions per file type', '');
  out.push('| file type | definitions | section notes | token rules | repeated records | enums (values) | references | images | path links | version-restricted |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (t: TypeCounts) =>
    `| ${t.key} | ${t.definitions} | ${t.sectionNotes} | ${t.tokens} | ${t.records} | ${t.enums} (${t.enumValues}) | ${t.references} | ${t.images} | ${t.pathLinks} | ${t.versionRestricted} |`;
  for (const t of report.perType) out.push(row(t));
  out.push(row(report.global), row(report.pathRules));
  out.push('', '(global) = rules for every file (no extension, no glob); (path) = tree notes on files and folders.');
  out.push('A definition with several extensions is counted under each.');
  out.push('', `## relations (${report.relations.length})`, '');
  for (const r of report.relations) out.push(`- ${r.name} (${r.kind}): ${r.lists}`);
  out.push('', `## fact rows: ${report.rows.total} in the map, ${report.rows.covered} covered, ${report.rows.notCovered} not covered`, '');
  for (const r of report.notCovered) out.push(`- ${r.section} ${r.tag}: ${r.reason ?? '(no reason given)'}`);
  if (report.unmapped.length > 0) {
    out.push('', `## definitions that cite no source (${report.unmapped.length})`, '', report.unmapped.join(', '));
  }
  if (report.untrusted.length > 0) {
    out.push('', `## definitions without a trust state (${report.untrusted.length})`, '', report.untrusted.join(', '));
  }
  out.push('', '## checks', '');
  out.push(report.problems.length === 0 ? '- validation: no problems' : `- validation: ${report.problems.length} problem(s)`);
  for (const p of report.problems) out.push(`  - ${p.severity} ${p.file} ${p.path}: ${p.message}`);
  out.push(report.stale.length === 0 ? '- coverage map: every id exists in the layer' : `- coverage map: ${report.stale.length} stale id(s)`);
  for (const s of report.stale) out.push(`  - ${s.row.section} ${s.row.tag}: ${s.id} is not defined`);
  if (report.inconsistent.length > 0) {
    out.push(`- coverage map: ${report.inconsistent.length} row(s) whose status disagrees with ids/reason`);
    for (const r of report.inconsistent) out.push(`  - ${r.section} ${r.tag}`);
  }
  return `${out.join('\n')}\n`;
}

/** Whether the report passes: compiles without any problem, no stale or inconsistent map rows. */
export function reportPasses(report: CoverageReport): boolean {
  return report.problems.length === 0 && report.stale.length === 0 && report.inconsistent.length === 0 && report.unmapped.length === 0 && report.untrusted.length === 0;
}

/** The command line: prints the report to `out`, problems to `err`; returns the exit code. */
export async function main(argv: readonly string[], out: (text: string) => void = (t) => process.stdout.write(t), err: (text: string) => void = (t) => process.stderr.write(t)): Promise<number> {
  const options: { layerDir?: string; coverageFile?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === '--layer' || arg === '--map') && value !== undefined) {
      if (arg === '--layer') options.layerDir = path.resolve(value);
      else options.coverageFile = path.resolve(value);
      i++;
    } else {
      err('usage: tsx scripts/coverage-rules.ts [--layer <dir>] [--map <coverage.json>]\n');
      return 2;
    }
  }
  try {
    const report = await coverageReport(options);
    out(formatCoverageReport(report));
    if (!reportPasses(report)) {
      err('coverage:rules failed: see "checks" above\n');
      return 1;
    }
    return 0;
  } catch (error) {
    err(`coverage:rules failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
