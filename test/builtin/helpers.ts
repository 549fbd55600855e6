/**
 * Shared helpers of the builtin-layer tests: the compiled builtin layer, the example workspaces of
 * test/golden/builtin, the real samples of test/fixtures/samples, and the golden rendering of
 * explain results (one line per annotation, like test/golden/explain, but without rule contents: the
 * builtin contents are long source notes, and the goldens are about which rule hits which token).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import type { PathContextEntry } from '../../runtime/explain/annotate-script.js';
import type { ExplainOutput, ExplainOutputAnnotation } from '../../runtime/explain/explain-schema.js';

export const BUILTIN_LAYER = fileURLToPath(new URL('../../rules/builtin/', import.meta.url));
export const COVERAGE_MAP = fileURLToPath(new URL('../../rules/builtin.coverage.json', import.meta.url));
export const GOLDEN_ROOT = fileURLToPath(new URL('../golden/builtin/', import.meta.url));
/** 90US folder layout: registries next to their files, list rows relative to the list's folder. */
export const WORKSPACE_90US = path.join(GOLDEN_ROOT, 'workspace');
/** 110US layout: registries under list/, list rows relative to the archive root. */
export const WORKSPACE_110US = path.join(GOLDEN_ROOT, 'workspace-110us');
/** The real samples, copied with their PROVENANCE.md into test/fixtures/samples. */
export const SAMPLES_ROOT = fileURLToPath(new URL('../fixtures/samples/', import.meta.url));

let builtin: Promise<Bundle> | undefined;

/** rules/builtin compiled in memory (once per test file); fails on any problem, warnings included. */
export function builtinBundle(): Promise<Bundle> {
  builtin ??= compileLayers([BUILTIN_LAYER]).then((result) => {
    if (!result.ok || result.problems.length > 0) throw new Error(`rules/builtin does not compile cleanly:\n${JSON.stringify(result.problems, null, 2)}`);
    return openBuiltBundle(result.bundle.files);
  });
  return builtin;
}

/** Every file below `root`, as archive paths with "/", sorted. */
export function filesBelow(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir)).sort()) {
    const rel = dir === '' ? name : `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...filesBelow(root, rel));
    else out.push(rel);
  }
  return out;
}

/** Final extension with the dot, lower-cased ("" when none). */
export function extensionOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

// --- Golden text ---

/** A value as written in goldens: bare when it has no spaces, else JSON-quoted. */
function showValue(value: string): string {
  return value !== '' && !/[\s"]/.test(value) ? value : JSON.stringify(value);
}

function showText(text: string): string {
  return text === '' ? '""' : text.replaceAll('\n', '⏎');
}

/**
 * One line per annotation: position, section#occurrence, token (or tag) and record, title, type with
 * value / enum label / reference / image / path link, rule ids (or "runtime"); then one line per rule
 * block when several rules merged on the span.
 */
export function formatAnnotation(a: ExplainOutputAnnotation): string[] {
  const where =
    a.tokenIndex === null ? (a.section === null ? 'token' : 'tag') : a.lastTokenIndex !== undefined ? `tok${a.tokenIndex}..${a.lastTokenIndex}` : `tok${a.tokenIndex}`;
  const record = a.recordIndex !== undefined ? ` rec${a.recordIndex}` : '';
  const details: string[] = [];
  if (a.value !== null && a.type !== 'link' && a.type !== 'placeholder') details.push(showValue(a.value));
  if (a.valueLabel !== undefined) details.push(`= ${a.valueLabel}`);
  if (a.unknownValue) details.push('(not in the enum)');
  if (a.reference) {
    const r = a.reference;
    const context = r.context === null ? '' : ` @${showValue(r.context)}`;
    details.push(`→ ${r.relation}:${showValue(r.id)}${context} ${r.resolutionStatus}${r.name ? ` name=${r.name}` : ''}${r.path ? ` path=${r.path}` : ''}`);
  }
  if (a.image) details.push(`image=${a.image.path}[${a.image.index}]${a.inlineImage ? ' inline' : ''}`);
  if (a.pathLink) details.push(`→ ${a.pathLink.path} ${a.pathLink.resolutionStatus}`);
  if (a.placeholder) details.push(`placeholder <${a.placeholder.table}::${a.placeholder.key}> ${a.placeholder.resolutionStatus}`);
  const position = `${a.start.line}:${a.start.column}-${a.end.line}:${a.end.column}`;
  const section = a.section === null ? '(no section)' : `[${a.section}]#${a.occurrence ?? 0}`;
  const ids = a.origin === 'runtime' ? 'runtime' : a.ruleIds.join(', ');
  const lines = [`${position.padEnd(12)}${section} ${where}${record}  ${showText(a.title)}  (${[a.type, ...details].join(' ')})  ${ids}`];
  if (a.blocks !== undefined && a.blocks.length > 1) for (const block of a.blocks) lines.push(`    - ${block.ruleId}: ${showText(block.title)}`);
  return lines;
}

export function formatPathContext(entry: Pick<PathContextEntry, 'scopeKind' | 'scopePath' | 'ruleId' | 'title'>): string {
  return `${entry.scopeKind} ${entry.scopePath}  ${entry.ruleId}: ${showText(entry.title)}`;
}

/** The text with line numbers, then annotations, warnings, path notes, and extra parts. */
export function formatGolden(args: {
  title: string[];
  text: string;
  annotations: readonly ExplainOutputAnnotation[];
  warnings: ExplainOutput['warnings'];
  pathContext: readonly Pick<PathContextEntry, 'scopeKind' | 'scopePath' | 'ruleId' | 'title'>[];
  extra?: { heading: string; lines: string[] }[];
}): string {
  const out = args.title.map((line) => `# ${line}`);
  out.push('', '## text (normalised)');
  args.text.split('\n').forEach((line, i) => out.push(`${String(i + 1).padStart(4)} | ${line}`));
  out.push('', '## annotations');
  for (const a of args.annotations) out.push(...formatAnnotation(a));
  if (args.annotations.length === 0) out.push('(none)');
  out.push('', '## warnings');
  for (const w of args.warnings) out.push(`${w.start ? `${w.start.line}:${w.start.column}` : '-'}  ${w.code}  ${w.message}`);
  if (args.warnings.length === 0) out.push('(none)');
  out.push('', '## pathContext');
  for (const entry of args.pathContext) out.push(formatPathContext(entry));
  if (args.pathContext.length === 0) out.push('(none)');
  for (const part of args.extra ?? []) {
    out.push('', `## ${part.heading}`, ...(part.lines.length > 0 ? part.lines : ['(none)']));
  }
  return `${out.join('\n')}\n`;
}
