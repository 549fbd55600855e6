/**
 * How much of real files a rule set explains.
 *
 *   npm run coverage:corpus -- <folder or file>... [--layer <dir>]... [--no-builtin] [--pvf-version V] [--json] [--top N]
 *
 * Each folder is opened as a workspace rooted there (so `.lst` registries and `.str` tables inside it
 * resolve references and placeholders, as the server would); a file given alone is explained at its
 * name, without references. Every script file is explained with all its annotations, then counted per
 * file type:
 *
 * - tags: opening tags; one is explained when the tag itself, or a value before the next tag, carries
 *   an annotation that says something (a title, content or label);
 * - values: value tokens; one is explained only by an annotation on that token (a token or range rule,
 *   or a runtime link/placeholder) — a note on the section does not say what its values are;
 * - enums: enum annotations whose value has a label; references: reference annotations that resolved;
 * - warnings: what the lexer and the view reported;
 * - the tags left unexplained, most frequent first.
 *
 * The builtin layer comes first unless --no-builtin is given; --layer adds layers after it. Files that
 * are not scripts (images, string tables, binary) are counted as skipped.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compileLayers } from '../build/compile-layers.js';
import { formatProblem } from '../build/problems.js';
import { openBuiltBundle, type Bundle } from '../runtime/bundle/load-bundle.js';
import { createExplainCache, explainFile, type ExplainCache } from '../runtime/explain/explain-file.js';
import type { ExplainOutputAnnotation } from '../runtime/explain/explain-schema.js';
import { MAX_EXPLAIN_LIMIT } from '../runtime/explain/explain-schema.js';
import { normalizeText } from '../runtime/script/normalize-text.js';
import { listSections, listTokens, parseScriptView } from '../runtime/script/parse-script-view.js';
import { openDirectoryWorkspace } from '../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../runtime/workspace/workspace.js';
import { DEFAULT_LAYER } from './coverage-rules.js';

/** What is counted, per file and per file type. */
export interface Counts {
  tags: number;
  tagsExplained: number;
  values: number;
  valuesExplained: number;
  enums: number;
  enumsLabelled: number;
  references: number;
  referencesResolved: number;
  warnings: number;
}

const COUNT_KEYS = ['tags', 'tagsExplained', 'values', 'valuesExplained', 'enums', 'enumsLabelled', 'references', 'referencesResolved', 'warnings'] as const satisfies readonly (keyof Counts)[];

export interface TypeCoverage extends Counts {
  extension: string;
  files: number;
  /** Unexplained tag name (lower case) → how often. */
  uncovered: Map<string, number>;
  /** Tag name (lower case) → how many of its values are unexplained. */
  uncoveredValues: Map<string, number>;
}

export interface FileCoverage extends Counts {
  path: string;
  extension: string;
  uncovered: string[];
  /** The tag (lower case) of each unexplained value, in file order. */
  uncoveredValues: string[];
}

function emptyType(extension: string): TypeCoverage {
  return { extension, files: 0, tags: 0, tagsExplained: 0, values: 0, valuesExplained: 0, enums: 0, enumsLabelled: 0, references: 0, referencesResolved: 0, warnings: 0, uncovered: new Map(), uncoveredValues: new Map() };
}

/** The file type a path counts under: its last extension, lower case ("" for none). */
export function fileType(archivePath: string): string {
  const name = archivePath.slice(archivePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

function saysSomething(a: ExplainOutputAnnotation): boolean {
  return a.title.trim() !== '' || (a.summary ?? '').trim() !== '' || (a.valueLabel ?? '') !== '';
}

/** Counts one explained file against its own view (the same normalised text the offsets refer to). */
export function measureFile(archivePath: string, text: string, annotations: readonly ExplainOutputAnnotation[], warnings: number): FileCoverage {
  const view = parseScriptView(normalizeText(text));
  const sections = listSections(view);
  const tokens = listTokens(view);
  const informative = annotations.filter(saysSomething);
  // A note on a tag has exactly the tag's span; everything else (token and range rules, runtime list
  // rows and placeholders, which may carry no token index) is about the values it covers.
  const sectionSpans = new Set(sections.map((s) => `${s.start}:${s.end}`));
  const onTag = (a: ExplainOutputAnnotation) => sectionSpans.has(`${a.range.start}:${a.range.end}`);
  const tagSpans = new Set(informative.filter(onTag).map((a) => `${a.range.start}:${a.range.end}`));
  const tokenRanges = informative.filter((a) => !onTag(a)).map((a) => a.range);
  tokenRanges.sort((a, b) => a.start - b.start);

  // Values: a token is explained when a token annotation's range covers it (ranges may span tokens).
  const explainedSections = new Set<number>();
  const sectionName = new Map(sections.map((s) => [s.id, s.name.toLowerCase()]));
  const uncoveredValues: string[] = [];
  let valuesExplained = 0;
  let cursor = 0;
  const active: { start: number; end: number }[] = [];
  for (const token of tokens) {
    while (cursor < tokenRanges.length && tokenRanges[cursor]!.start <= token.start) active.push(tokenRanges[cursor++]!);
    const covered = active.some((r) => r.start <= token.start && r.end >= token.end);
    if (covered) {
      valuesExplained += 1;
      explainedSections.add(token.sectionId);
    } else uncoveredValues.push(sectionName.get(token.sectionId) ?? '');
  }
  let tagsExplained = 0;
  const uncovered: string[] = [];
  for (const section of sections) {
    if (tagSpans.has(`${section.start}:${section.end}`) || explainedSections.has(section.id)) tagsExplained += 1;
    else uncovered.push(section.name.toLowerCase());
  }
  const enums = informative.filter((a) => a.type === 'enum');
  const references = annotations.filter((a) => a.reference !== undefined);
  return {
    path: archivePath,
    extension: fileType(archivePath),
    tags: sections.length,
    tagsExplained,
    values: tokens.length,
    valuesExplained,
    enums: enums.length,
    enumsLabelled: enums.filter((a) => a.valueLabel !== undefined && a.unknownValue === undefined).length,
    references: references.length,
    referencesResolved: references.filter((a) => a.reference?.resolutionStatus === 'resolved').length,
    warnings,
    uncovered,
    uncoveredValues,
  };
}

async function* scriptPaths(workspace: Workspace, dir = ''): AsyncGenerator<string> {
  const view = await workspace.view();
  for (const entry of view.listDirectory(dir)) {
    if (entry.kind === 'directory') yield* scriptPaths(workspace, entry.path);
    else yield entry.path;
  }
}

/** Explains every script of a workspace with all its annotations (every page). */
export async function measureWorkspace(bundle: Bundle, workspace: Workspace, cache: ExplainCache = createExplainCache()): Promise<{ files: FileCoverage[]; skipped: number }> {
  const files: FileCoverage[] = [];
  let skipped = 0;
  for await (const filePath of scriptPaths(workspace)) {
    const view = await workspace.view();
    const text = view.readText(filePath);
    if (!text.isScript) {
      skipped += 1;
      continue;
    }
    const annotations: ExplainOutputAnnotation[] = [];
    let cursor: string | undefined;
    let warnings = 0;
    do {
      const page = await explainFile({
        bundle,
        workspace,
        cache,
        input: { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath, limit: MAX_EXPLAIN_LIMIT, ...(cursor ? { cursor } : {}) },
      });
      if (cursor === undefined) warnings = page.warnings.filter((w) => w.code !== 'UNKNOWN_PVF_VERSION').length;
      // schemaVersion 3: a summary its first document already gives is sent once, in documents.
      annotations.push(...page.annotations.map((a) => (a.summary !== undefined ? a : { ...a, summary: page.documents[a.documentIds[0] ?? '']?.summary ?? '' })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    files.push(measureFile(filePath, text.text, annotations, warnings));
  }
  return { files, skipped };
}

export function summarise(files: readonly FileCoverage[]): TypeCoverage[] {
  const byType = new Map<string, TypeCoverage>();
  for (const f of files) {
    let t = byType.get(f.extension);
    if (!t) {
      t = emptyType(f.extension);
      byType.set(f.extension, t);
    }
    t.files += 1;
    for (const key of COUNT_KEYS) t[key] += f[key];
    for (const name of f.uncovered) t.uncovered.set(name, (t.uncovered.get(name) ?? 0) + 1);
    for (const name of f.uncoveredValues) t.uncoveredValues.set(name, (t.uncoveredValues.get(name) ?? 0) + 1);
  }
  return [...byType.values()].sort((a, b) => b.files - a.files || (a.extension < b.extension ? -1 : 1));
}

export function totalOf(types: readonly TypeCoverage[]): TypeCoverage {
  const total = emptyType('(all)');
  for (const t of types) {
    total.files += t.files;
    for (const key of COUNT_KEYS) total[key] += t[key];
    for (const [name, n] of t.uncovered) total.uncovered.set(`${t.extension} [${name}]`, n);
    for (const [name, n] of t.uncoveredValues) total.uncoveredValues.set(`${t.extension} [${name}]`, n);
  }
  return total;
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);

function topUncovered(counts: ReadonlyMap<string, number>, top: number): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, top)
    .map(([name, n]) => `[${name}]×${n}`)
    .join(' ');
}

export function formatReport(types: readonly TypeCoverage[], top: number, skipped: number): string {
  const rows = [...types, totalOf(types)];
  const lines = ['| type | files | tags | tags explained | values | values explained | enums labelled | references resolved | warnings |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const t of rows) {
    lines.push(
      `| ${t.extension || '(none)'} | ${t.files} | ${t.tags} | ${pct(t.tagsExplained, t.tags)} | ${t.values} | ${pct(t.valuesExplained, t.values)} | ${pct(t.enumsLabelled, t.enums)} of ${t.enums} | ${pct(t.referencesResolved, t.references)} of ${t.references} | ${t.warnings} |`,
    );
  }
  lines.push('', `skipped (not scripts): ${skipped}`, '', 'Unexplained tags, most frequent first:');
  for (const t of types) {
    const names = topUncovered(t.uncovered, top);
    if (names) lines.push(`- ${t.extension || '(none)'}: ${names}`);
  }
  lines.push('', 'Unexplained values by tag, most frequent first:');
  for (const t of types) {
    const names = topUncovered(t.uncoveredValues, top);
    if (names) lines.push(`- ${t.extension || '(none)'}: ${names}`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      layer: { type: 'string', multiple: true },
      'no-builtin': { type: 'boolean' },
      'pvf-version': { type: 'string' },
      json: { type: 'boolean' },
      top: { type: 'string' },
    },
  });
  const targets: { root: string; file?: string }[] = [];
  for (const arg of positionals) {
    const info = await stat(arg).catch(() => null);
    if (!info) {
      process.stderr.write(`coverage:corpus: ${arg} does not exist\n`);
      return 2;
    }
    if (info.isDirectory()) targets.push({ root: path.resolve(arg) });
    else if (!/\.(md|txt)$/i.test(arg)) targets.push({ root: path.dirname(path.resolve(arg)), file: path.basename(arg) });
  }
  if (targets.length === 0) {
    process.stderr.write('usage: npm run coverage:corpus -- <folder or file>... [--layer <dir>]... [--no-builtin] [--pvf-version V] [--json] [--top N]\n');
    return 2;
  }
  const layers = [...(values['no-builtin'] ? [] : [DEFAULT_LAYER]), ...(values.layer ?? [])];
  const compiled = await compileLayers(layers);
  if (!compiled.ok) {
    process.stderr.write(`the layers do not compile:\n${compiled.problems.map(formatProblem).join('\n')}\n`);
    return 1;
  }
  const bundle = openBuiltBundle(compiled.bundle.files);
  const files: FileCoverage[] = [];
  let skipped = 0;
  const byRoot = new Map<string, Set<string> | null>();
  for (const t of targets) {
    const current = byRoot.get(t.root);
    if (t.file === undefined || current === null) byRoot.set(t.root, null);
    else byRoot.set(t.root, (current ?? new Set()).add(t.file));
  }
  for (const [root, only] of byRoot) {
    const workspace = await openDirectoryWorkspace({ workspaceId: 'corpus', name: path.basename(root), root, pvfVersion: values['pvf-version'] ?? '' });
    try {
      const result = await measureWorkspace(bundle, workspace);
      files.push(...result.files.filter((f) => only === null || only === undefined || only.has(f.path)));
      skipped += result.skipped;
    } finally {
      await workspace.close();
    }
  }
  const types = summarise(files);
  if (values.json) {
    const plain = (t: TypeCoverage) => ({ ...t, uncovered: Object.fromEntries([...t.uncovered].sort((a, b) => b[1] - a[1])), uncoveredValues: Object.fromEntries([...t.uncoveredValues].sort((a, b) => b[1] - a[1])) });
    process.stdout.write(`${JSON.stringify({ types: types.map(plain), total: plain(totalOf(types)), files, skipped }, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatReport(types, Number(values.top ?? 12), skipped)}\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main().catch((error: unknown) => {
    process.stderr.write(`coverage:corpus failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  });
}
