/**
 * Shared helpers of the explain tests: the golden fixture bundle, stub resolvers and the readable
 * golden-text rendering of an annotateScript result.
 */
import { fileURLToPath } from 'node:url';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { AnnotateScriptResult, ExplainAnnotation, PathContextEntry } from '../../../runtime/explain/annotate-script.js';
import type { ReferenceQuery, ReferenceResolution } from '../../../runtime/references/reference-query.js';

export const GOLDEN_DIR = fileURLToPath(new URL('../../golden/explain/', import.meta.url));
export const EXPLAIN_LAYER = fileURLToPath(new URL('../../golden/explain/layer/', import.meta.url));

/** The fixture layer of test/golden/explain/layer, compiled in memory. */
export async function explainBundle(): Promise<Bundle> {
  const result = await compileLayers([EXPLAIN_LAYER]);
  if (!result.ok) throw new Error(`explain fixture layer does not compile:\n${JSON.stringify(result.problems, null, 2)}`);
  return openBuiltBundle(result.bundle.files);
}

const KNOWN_REFERENCES: Record<string, { name: string; path: string }> = {
  '怪物|1001': { name: '哥布林', path: 'monster/goblin.mob' },
  '物品|2001': { name: '', path: 'stackable/potion.stk' },
  '物品|2003': { name: '无尽的永恒', path: 'equipment/eternal.equ' },
  '技能|[fighter]|5': { name: '上挑', path: 'skill/fighter/upper.skl' },
  '技能|[swordman]|9': { name: '里·鬼剑术', path: 'skill/swordman/backstep.skl' },
};

/**
 * A stand-in for the workspace resolver: a few known ids; the contextual 技能 relation needs a context
 * it has a list for (`[fighter]`, `[swordman]`), else `context_required`.
 */
export function stubResolveReference(query: ReferenceQuery): ReferenceResolution {
  if (query.relation === '技能') {
    const context = (query.context ?? '').trim().toLowerCase();
    if (context !== '[fighter]' && context !== '[swordman]') return { status: 'context_required', name: null, path: null };
    const found = KNOWN_REFERENCES[`技能|${context}|${query.id}`];
    return found ? { status: 'resolved', ...found } : { status: 'missing', name: null, path: null };
  }
  const found = KNOWN_REFERENCES[`${query.relation}|${query.id}`];
  return found ? { status: 'resolved', ...found } : { status: 'missing', name: null, path: null };
}

const KNOWN_FILES = new Map([['equipment/set/a.equ', 'equipment/set/A.equ']]);

export function stubResolvePath(path: string): string | null {
  return KNOWN_FILES.get(path.toLowerCase()) ?? null;
}

/** A value as written in goldens: bare when it has no spaces, else JSON-quoted. */
function showValue(value: string): string {
  return value !== '' && !/[\s"]/.test(value) ? value : JSON.stringify(value);
}

function showText(text: string): string {
  return text === '' ? '""' : text.replaceAll('\n', '⏎');
}

/** One line per annotation (plus one line per rule block when several rules merged on the span). */
export function formatAnnotation(a: ExplainAnnotation): string[] {
  const where = a.tokenIndex === null ? 'tag' : a.lastTokenIndex !== undefined ? `tok${a.tokenIndex}..${a.lastTokenIndex}` : `tok${a.tokenIndex}`;
  const record = a.recordIndex !== undefined ? ` rec${a.recordIndex}` : '';
  const details: string[] = [];
  if (a.value !== null) details.push(showValue(a.value));
  if (a.valueLabel !== undefined) details.push(`= ${a.valueLabel}`);
  if (a.unknownValue) details.push('unknown value');
  if (a.reference) {
    const r = a.reference;
    const context = r.context === null ? '' : ` @${showValue(r.context)}`;
    details.push(`→ ${r.relation}:${showValue(r.id)}${context} ${r.resolutionStatus}${r.name ? ` name=${r.name}` : ''}${r.path ? ` path=${r.path}` : ''}`);
  }
  if (a.image) details.push(`image=${a.image.path}[${a.image.index}]${a.inlineImage ? ' inline' : ''}`);
  if (a.pathLink) details.push(`→ ${a.pathLink.path} ${a.pathLink.resolutionStatus}`);
  const position = `${a.start.line}:${a.start.column}-${a.end.line}:${a.end.column}`;
  const lines = [`${position.padEnd(12)}[${a.section}]#${a.occurrence} ${where}${record}  ${showText(a.title)}  (${[a.type, ...details].join(' ')})  ${a.ruleIds.join(', ')}`];
  if (a.blocks.length > 1) {
    for (const block of a.blocks) lines.push(`    - ${block.ruleId}: ${showText(block.title)}${block.content ? ` | ${showText(block.content)}` : ''}`);
  }
  return lines;
}

/** A path note with its document's text (the wire entry sends it once, in documents). */
export type PathNote = PathContextEntry & { content: string };

export function formatPathContext(entry: PathNote): string {
  return `${entry.scopeKind} ${entry.scopePath}  ${entry.ruleId}: ${showText(entry.title)}${entry.content ? ` | ${showText(entry.content)}` : ''}`;
}

/** The whole golden text of one case: input with line numbers, annotations, warnings, path context. */
export function formatGolden(args: {
  title: string;
  filePath: string;
  versionKey: string;
  result: AnnotateScriptResult;
  pathContext: readonly PathNote[];
}): string {
  const { result } = args;
  const out = [`# ${args.title}`, `# file ${args.filePath}, version ${JSON.stringify(args.versionKey)}`, '', '## text (normalised)'];
  result.view.text.split('\n').forEach((line, i) => out.push(`${String(i + 1).padStart(4)} | ${line}`));
  out.push('', '## annotations');
  for (const a of result.annotations) out.push(...formatAnnotation(a));
  if (result.annotations.length === 0) out.push('(none)');
  out.push('', '## warnings');
  for (const w of result.warnings) out.push(`${w.start.line}:${w.start.column}-${w.end.line}:${w.end.column}  ${w.code}  ${w.message}`);
  if (result.warnings.length === 0) out.push('(none)');
  out.push('', '## pathContext');
  for (const entry of args.pathContext) out.push(formatPathContext(entry));
  if (args.pathContext.length === 0) out.push('(none)');
  return `${out.join('\n')}\n`;
}
