import path from 'node:path';
import { tokenSpanText, valueText } from '../../runtime/explain/annotation-text.js';
import { explainFile } from '../../runtime/explain/explain-file.js';
import type { ExplainOutput, ExplainOutputAnnotation } from '../../runtime/explain/explain-schema.js';
import { MAX_EXPLAIN_LIMIT, parseExplainInput } from '../../runtime/explain/explain-schema.js';
import { openWorkspace } from '../../runtime/workspace/open-workspace.js';
import { parseCommandArgs, UsageError } from '../args.js';
import { parseEncoding } from './serve.js';
import { formatTable } from '../format-table.js';
import { openSnapshot } from '../open-snapshot.js';

const HELP = `Usage: pvfdoc explain --workspace <folder|Script.pvf> --file <archive path> [options]

Explains what the rules say about one script file, like the MCP tool pvf_annotation_explain
(every page, one listing).
  --workspace <path>      a folder of decompiled script text, or a classic Script.pvf (read-only)
  --file <path>           archive-internal path of the file, e.g. equipment/character/sword.equ
  --snapshots <dir>       snapshots folder (uses its current) or a bundle folder; default ./snapshots
  --pvf-version <V>       client version of the workspace (e.g. 110US); default: unknown
  --encoding <name>       text encoding of a Script.pvf (cp950, cp936, cp949, utf-8); default: detected
  --section <S>           only annotations inside sections of this name
  --json                  print the tool's structuredContent (all pages merged: nextCursor null)`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'explain',
    argv,
    {
      workspace: { type: 'string' },
      file: { type: 'string' },
      snapshots: { type: 'string' },
      'pvf-version': { type: 'string' },
      encoding: { type: 'string' },
      section: { type: 'string' },
      json: { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.workspace === undefined || values.file === undefined) throw new UsageError('explain: give --workspace <folder or Script.pvf> and --file <archive path>');
  const encoding = parseEncoding('explain', values.encoding);
  const bundle = await openSnapshot(values.snapshots);
  const root = path.resolve(values.workspace);
  const workspaceId = path.basename(root) || 'workspace';
  const workspace = await openWorkspace({
    workspaceId,
    name: workspaceId,
    path: root,
    ...(values['pvf-version'] !== undefined ? { pvfVersion: values['pvf-version'] } : {}),
    ...(encoding !== undefined ? { encoding } : {}),
  });
  try {
    await workspace.view();
    const base = parseExplainInput({
      workspaceId,
      expectedRevision: workspace.info().revision,
      filePath: values.file,
      limit: MAX_EXPLAIN_LIMIT,
      // A person at a terminal reads the notes in full.
      fullText: true,
      ...(values.section !== undefined ? { section: values.section } : {}),
    });
    const first = await explainFile({ bundle, workspace, input: base });
    let result = first;
    const annotations = [...result.annotations];
    const documents = { ...result.documents };
    while (result.nextCursor !== null) {
      result = await explainFile({ bundle, workspace, input: { ...base, cursor: result.nextCursor } });
      annotations.push(...result.annotations);
      Object.assign(documents, result.documents);
    }
    // Later pages omit pathContext (since schemaVersion 2): the merged result takes the first page's.
    const { pathContextOmitted: _omitted, ...last } = result;
    const merged: ExplainOutput = { ...last, pathContext: first.pathContext, annotations, documents, nextCursor: null, truncated: false };
    process.stdout.write(values.json ? `${JSON.stringify(merged, null, 2)}\n` : renderExplain(merged));
    return 0;
  } finally {
    await workspace.close();
  }
}

function renderExplain(result: ExplainOutput): string {
  const lines = [
    `${result.filePath}  (workspace revision ${result.revision}, textRevision ${result.textRevision}, rulesRevision ${result.rulesRevision}, version ${result.pvfVersion || 'unknown'})`,
  ];
  for (const p of result.pathContext) {
    const text = result.documents[p.documentId]?.content ?? result.documents[p.documentId]?.summary ?? '';
    lines.push(`${p.scopeKind} ${p.scopePath}: ${p.title}${text ? ` — ${text}` : ''}`);
  }
  lines.push('');
  if (result.annotations.length === 0) {
    lines.push('no annotations (this does not mean the content is valid)');
  } else {
    const rows = result.annotations.map((a) => [
      `${a.start.line}:${a.start.column}`,
      a.section === null ? '' : `[${a.section}]${a.occurrence ? `#${a.occurrence}` : ''}`,
      // A token before any section (a .lst row) has no section and no index: it is no tag.
      a.tokenIndex === null ? (a.value === null ? 'tag' : 'top') : `tok${tokenSpanText(a).slice(1)}`,
      a.title,
      valueText(a) ?? '',
      meaning(a),
    ]);
    lines.push(formatTable(['line:col', 'section', 'where', 'title', 'value', 'label / reference'], rows));
  }
  for (const w of result.warnings) lines.push(`warning ${w.start ? `${w.start.line}:${w.start.column} ` : ''}${w.code}: ${w.message}`);
  lines.push('', `${result.annotations.length} annotations`);
  return `${lines.join('\n')}\n`;
}

function meaning(a: ExplainOutputAnnotation): string {
  if (a.valueLabel !== undefined) return a.valueLabel;
  if (a.unknownValue) return '(unknown value)';
  if (a.reference) {
    const r = a.reference;
    return `→ ${r.relation} ${r.id}${r.context === null ? '' : ` @${r.context}`}: ${r.resolutionStatus}${r.name ? ` ${r.name}` : ''}${r.path ? ` (${r.path})` : ''}`;
  }
  if (a.pathLink) return `→ ${a.pathLink.path} (${a.pathLink.resolutionStatus})`;
  if (a.placeholder) return `→ ${a.placeholder.text ?? `${a.placeholder.table}:${a.placeholder.key}`} (${a.placeholder.resolutionStatus})`;
  if (a.image) return `image ${a.image.path}[${a.image.index}]`;
  return '';
}
