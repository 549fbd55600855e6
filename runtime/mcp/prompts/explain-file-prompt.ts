/**
 * The prompt "explain this file": a task for the model plus what pvfdoc already knows about one
 * script file of a workspace, filled by the library calls behind workspace_info, read_file and
 * pvf_annotation_explain (and pvf_annotation_search when a client version is given), cut to the
 * prompt budget, with the exact tool calls that continue where it stops.
 */
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { Bundle } from '../../bundle/load-bundle.js';
import { PvfdocError } from '../../errors.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';
import { tokenSpanText, valueText } from '../../explain/annotation-text.js';
import { EXPLAIN_TOOL, explainFile } from '../../explain/explain-file.js';
import type { ExplainInput, ExplainOutput, ExplainOutputAnnotation } from '../../explain/explain-schema.js';
import { GET_TOOL } from '../../get/get-document.js';
import { searchDocuments, SEARCH_TOOL } from '../../search/search-documents.js';
import type { SearchOutput } from '../../search/search-schema.js';
import type { WorkspaceInfo } from '../../workspace/workspace.js';
import { findWorkspace, type ServerContext } from '../server-context.js';
import { completeFilePath, completeSections, completeVersions, completeWorkspaceIds, extensionOfPath, optionalCompletable } from './prompt-completions.js';
import { TAG_MEANING_PROMPT } from './prompt-names.js';
import { fitLines, oneLine, PROMPT_BUDGET_BYTES, promptResult, toolCall, utf8Bytes } from './prompt-text.js';

/** What one tool call of the prompt's "next" list names (kept in step with the tools' names). */
const READ_FILE_TOOL = 'read_file';

/** The file's text shown: at most this many bytes and lines, each line cut to LINE_POINTS. */
const EXCERPT_BYTES = 3 * 1024;
const EXCERPT_LINES = 60;
const LINE_POINTS = 160;
/** A value longer than this is cut in an annotation line (read_file has it whole). */
const VALUE_POINTS = 60;
/** Path notes and warnings each take at most this much of what is left after the fixed text. */
const NOTES_BYTES = 1536;
/** Below this much room for the file's content a prompt would say nothing: the tools are the way then. */
const MIN_CONTENT_BYTES = 4 * 1024;
const NO_ANNOTATIONS = '- （没有标注：规则里没有对应这段内容的说明；这不代表内容有效 / none: no rule describes this content, which does not make it valid）';

export function explainFileArgs(ctx: ServerContext) {
  const bundle = () => ctx.rules.current().bundle;
  return {
    workspaceId: completable(z.string().min(1).max(200).describe('工作区 id（workspace_info 的 workspaceId）/ workspaceId from workspace_info'), (typed) =>
      completeWorkspaceIds(ctx, typed),
    ),
    filePath: completable(
      z.string().min(1).max(1000).describe('脚本文件的档案内路径，用 "/" 分隔（list_files 的 path）/ archive path of a script file, "/" separated (from list_files)'),
      (typed, context) => completeFilePath(ctx, typed, context?.arguments),
    ),
    pvfVersion: optionalCompletable(
      z.string().max(32),
      '可选：目标客户端版本（如 110US、current、all）；解释按工作区自己的版本，这个版本用于对照搜索 / optional client version to compare with (explain uses the workspace\'s own)',
      (typed) => completeVersions(bundle(), typed),
    ),
    section: optionalCompletable(z.string().max(200), '可选：只解释这个标签，如 rarity 或 [rarity] / optional: only this section', (typed, context) =>
      completeSections(bundle(), typed, extensionOfPath(context?.arguments?.filePath)),
    ),
  };
}

type ExplainFileArgs = { workspaceId: string; filePath: string; pvfVersion?: string | undefined; section?: string | undefined };

export async function fillExplainFilePrompt(ctx: ServerContext, args: ExplainFileArgs): Promise<GetPromptResult> {
  const { bundle } = ctx.rules.current();
  const workspace = findWorkspace(ctx, args.workspaceId);
  // workspace_info: the revision brought up to date (NO_ARCHIVE when nothing is open).
  const view = await workspace.view();
  const info = workspace.info();
  const section = args.section !== undefined && bareSection(args.section) !== '' ? bareSection(args.section) : undefined;
  // Checked before the file is explained: an unknown version fails at once, as the search tool does.
  const requested = args.pvfVersion !== undefined && args.pvfVersion.trim() !== '' ? args.pvfVersion.trim() : undefined;
  const applying = requested === undefined ? null : applyingDefinitions(bundle, ctx, info, args.filePath, requested, section);
  const input: ExplainInput = { workspaceId: args.workspaceId, expectedRevision: view.revision, filePath: args.filePath, ...(section !== undefined ? { section } : {}) };
  const page = await explainFile({ bundle, workspace, input, ...(ctx.explainCache ? { cache: ctx.explainCache } : {}), ...(ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {}) });
  // read_file: the same view, the path as explain resolved it.
  const file = view.readText(page.filePath);
  const versionNote = requested === undefined || applying === null ? [] : compareVersion(info, page, requested, applying);

  const task = taskText(page.filePath, args.workspaceId, section);
  const head = [
    '# pvfdoc 查到的内容 / What pvfdoc found',
    '',
    '## 工作区 / Workspace (workspace_info)',
    `- ${workspaceLine(info)}`,
    `- rulesRevision ${page.rulesRevision}`,
    ...versionNote.map((l) => `- ${l}`),
  ];
  const heading = `## 解释 / Explanation (${EXPLAIN_TOOL}, 第 1 页 / page 1: ${page.annotations.length} annotations${page.nextCursor ? ', 还有更多 / more with nextCursor' : ''}; version context ${page.pvfVersion || '(unknown)'})`;
  const legend = '标注 / Annotations（行:列 [标签]#第几个.第几个token 字段 取值 = 枚举标签 → 引用 — 说明 / line:column [section]#occurrence.token field value = label → reference — summary）:';
  const next = nextSteps(page, file.text, section);
  // Everything but the parts cut to fit, with room for the separators, the headings of those parts
  // and the two lines of the excerpt that name the file again.
  const fixed = utf8Bytes(task) + utf8Bytes([...head, heading, legend, NO_ANNOTATIONS, ...next].join('\n')) + 2 * (utf8Bytes(page.filePath) + 200) + 256;
  let left = PROMPT_BUDGET_BYTES - fixed;
  if (left < MIN_CONTENT_BYTES) {
    throw new PvfdocError('RESPONSE_TOO_LARGE', `the path and arguments alone take ${fixed} bytes of the ${PROMPT_BUDGET_BYTES}-byte prompt budget`, {
      hint: `Call ${EXPLAIN_TOOL} and ${READ_FILE_TOOL} directly for this file.`,
      data: { bytes: fixed, limit: PROMPT_BUDGET_BYTES },
    });
  }

  const excerpt = excerptLines(file.text, page, section, Math.min(EXCERPT_BYTES, Math.floor(left / 4)));
  left -= utf8Bytes(excerpt.join('\n')) + 1;
  const notes = fitLines(pathNotes(page), Math.min(NOTES_BYTES, Math.floor(left / 5)), (n) => `- …另有 ${n} 条路径说明 / ${n} more path notes: ${EXPLAIN_TOOL}`);
  left -= utf8Bytes(notes.join('\n')) + 1;
  const warnings = fitLines(
    page.warnings.map((w) => `- ${w.code}${w.start ? ` ${w.start.line}:${w.start.column}` : ''}: ${oneLine(w.message, 200)}`),
    Math.min(NOTES_BYTES, Math.floor(left / 5)),
    (n) => `- …另有 ${n} 条警告 / ${n} more warnings: ${EXPLAIN_TOOL}`,
  );
  left -= utf8Bytes(warnings.join('\n')) + 1;
  const annotations = fitLines(
    annotationLines(page),
    Math.max(0, left),
    (n) => `- …本页另有 ${n} 条未列出：不带 cursor 调用 ${EXPLAIN_TOOL} 看完整的第一页 / ${n} more on this page: call ${EXPLAIN_TOOL} without a cursor`,
  );

  const explained = [
    heading,
    ...(notes.length > 0 ? ['路径说明 / Path notes:', ...notes] : []),
    legend,
    ...(page.annotations.length > 0 ? annotations : [NO_ANNOTATIONS]),
    ...(warnings.length > 0 ? ['警告 / Warnings:', ...warnings] : []),
  ];
  const data = [...head, '', ...excerpt, '', ...explained, '', ...next].join('\n');
  return promptResult(`解释 ${page.filePath}（工作区 ${args.workspaceId}）/ Explain ${page.filePath}`, [task, data]);
}

/** The section as the user wrote it, without one pair of brackets (explain takes either). */
function bareSection(section: string): string {
  const trimmed = section.trim();
  return (trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed).trim();
}

function taskText(filePath: string, workspaceId: string, section: string | undefined): string {
  const only = section === undefined ? '' : `，只看 [${section}] 标签`;
  const onlyEn = section === undefined ? '' : `, only the [${section}] sections`;
  return [
    `请解释 DNF 的 PVF 脚本文件 \`${filePath}\`（工作区 \`${workspaceId}\`${only}）：`,
    '1. 先用一两句话说明这是什么文件（看「路径说明」）。',
    '2. 按文件中的顺序说明每个标签（section）和取值的含义：字段名、取值、枚举标签和引用的对象。',
    '3. 指出值得注意的地方：不在枚举中的取值（= ?）、没找到的引用（missing）、需要上下文的引用（context_required）和解析警告。',
    '只依据下面 pvfdoc 查到的内容回答，不要编造没有列出的含义；规则描述的是这类文件，说明为空或不全并不代表内容有效或无效。内容不够时，按「下一步」调用 pvfdoc 的工具。用中文回答，字段名和取值保留原文。',
    '',
    `Explain the DNF PVF script file \`${filePath}\` (workspace \`${workspaceId}\`${onlyEn}): what the file is, then each section tag and value in file order (field, value, enum label, referenced object), then what stands out (values not in the enum, missing references, parse warnings). Answer from what pvfdoc found below; for more, make the tool calls under "下一步 / Next".`,
  ].join('\n');
}

function workspaceLine(info: WorkspaceInfo): string {
  const version = info.pvfVersion === '' ? '(unknown: only version-independent rules apply)' : info.pvfVersion;
  return `${info.workspaceId}: ${info.kind}, ${info.fileCount} files, revision ${info.revision}, pvfVersion ${version}${info.kind === 'directory' ? '' : `, encoding ${info.encoding}`}${info.warnings?.length ? `; ${info.warnings.length} warning(s)` : ''}`;
}

/** The search for `requested` (which checks it as the search tool does): definitions for the file then. */
function applyingDefinitions(bundle: Bundle, ctx: ServerContext, info: WorkspaceInfo, filePath: string, requested: string, section: string | undefined): SearchOutput {
  return searchDocuments(
    bundle,
    { filePath, pvfVersion: requested, workspaceId: info.workspaceId, limit: 1, ...(section !== undefined ? { section } : {}) },
    { currentVersion: info.pvfVersion, ...(ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {}) },
  );
}

/** Explain always uses the workspace's own version: another one is only compared. */
function compareVersion(info: WorkspaceInfo, page: ExplainOutput, requested: string, found: SearchOutput): string[] {
  const version = found.context.pvfVersion || '(unknown)';
  const rules = `${SEARCH_TOOL} 在 ${version} 下找到 ${found.totalMatches} 条适用于此文件的定义 / ${found.totalMatches} definitions apply to this file for ${version}`;
  if (requested === 'current' || requested === info.pvfVersion) return [rules];
  return [`注意：下面的解释按工作区的版本 ${page.pvfVersion || '(unknown)'}，不是你指定的 ${requested} / the explanation uses the workspace's version, not ${requested}`, rules];
}

function excerptLines(text: string, page: ExplainOutput, section: string | undefined, maxBytes: number): string[] {
  const lines = text.split('\n');
  const first = section !== undefined && page.annotations[0] ? tagLineBefore(lines, page.annotations[0].start.line, section) : 1;
  const lastAnnotated = page.annotations.reduce((n, a) => Math.max(n, a.end.line), first);
  const last = Math.min(lines.length, Math.max(lastAnnotated, first + 19), first + EXCERPT_LINES - 1);
  const heading = `## 文件 / File (${READ_FILE_TOOL}): ${page.filePath}, ${lines.length} lines, textRevision ${page.textRevision}`;
  const restNote = (from: number) =>
    `第 ${from} 行起未列出 / from line ${from} on: ${toolCall(READ_FILE_TOOL, { workspaceId: page.workspaceId, filePath: page.filePath, startLine: from })}`;
  let used = utf8Bytes(heading) + utf8Bytes(restNote(lines.length)) + 16;
  const shown: string[] = [];
  for (let line = first; line <= last; line++) {
    const numbered = `${line}\t${oneLineCut(lines[line - 1] ?? '')}`;
    if (used + utf8Bytes(numbered) + 1 > maxBytes) break;
    used += utf8Bytes(numbered) + 1;
    shown.push(numbered);
  }
  const shownLast = first + shown.length - 1;
  return [heading, '```text', ...shown, '```', ...(shownLast < lines.length ? [restNote(shownLast + 1)] : [])];
}

/** The line of the `[section]` tag the annotation at `line` is in (a token's annotation starts after it). */
function tagLineBefore(lines: readonly string[], line: number, section: string): number {
  const tag = `[${section.toLowerCase()}]`;
  for (let at = line; at >= Math.max(1, line - EXCERPT_LINES); at--) if ((lines[at - 1] ?? '').trim().toLowerCase().startsWith(tag)) return at;
  return line;
}

function oneLineCut(line: string): string {
  const points = [...line];
  return points.length <= LINE_POINTS ? line : `${points.slice(0, LINE_POINTS - 1).join('')}…`;
}

/** Each path note's document once, with the scopes it covers. */
function pathNotes(page: ExplainOutput): string[] {
  const byDocument = new Map<string, { title: string; scopes: string[] }>();
  for (const p of page.pathContext) {
    const entry = byDocument.get(p.documentId) ?? { title: p.title, scopes: [] };
    entry.scopes.push(`${p.scopeKind} ${p.scopePath}`);
    byDocument.set(p.documentId, entry);
  }
  return [...byDocument].map(([id, { title, scopes }]) => {
    const doc = page.documents[id];
    const where = scopes.length > 1 ? `${scopes[0]} +${scopes.length - 1}` : (scopes[0] ?? '');
    return `- ${title} (${where}; doc ${id}${doc?.trust ? `, trust ${doc.trust}` : ''}): ${doc ? oneLine(doc.summary, 120) : ''}`;
  });
}

/** One line per annotation; a document's summary and id go with the first annotation citing it. */
function annotationLines(page: ExplainOutput): string[] {
  const told = new Set<string>();
  return page.annotations.map((a) => {
    const parts = [`- ${describeAnnotation(a)}`];
    const first = a.documentIds[0];
    if (a.summary !== undefined) parts.push(`— ${a.summary}`);
    else if (first !== undefined && !told.has(first)) {
      const doc = page.documents[first];
      if (doc) parts.push(`— ${doc.summary}${doc.trust && doc.trust !== 'confirmed' ? ` (trust ${doc.trust})` : ''}`);
    }
    if (first !== undefined && !told.has(first)) {
      parts.push(`(doc ${first})`);
      told.add(first);
    }
    // Rules merged on the same span: each further document once, with its summary when it says more.
    for (const id of a.documentIds.slice(1)) {
      if (told.has(id)) continue;
      const summary = page.documents[id]?.summary;
      parts.push(summary !== undefined && summary !== page.documents[first ?? '']?.summary ? `(+ doc ${id}: ${summary})` : `(+ doc ${id})`);
      told.add(id);
    }
    return parts.join(' ');
  });
}

function describeAnnotation(a: ExplainOutputAnnotation): string {
  const where = a.section === null ? '' : ` [${a.section}]#${a.occurrence ?? 0}${tokenSpanText(a)}`;
  const parts = [`${a.start.line}:${a.start.column}${where}`];
  if (a.title !== '') parts.push(oneLine(a.title, 40));
  const value = valueText(a, (v) => JSON.stringify(oneLine(v, VALUE_POINTS)));
  if (value !== null) parts.push(value);
  if (a.valueLabel !== undefined) parts.push(`= ${oneLine(a.valueLabel, 40)}`);
  if (a.unknownValue) parts.push('= ?');
  if (a.reference) {
    const r = a.reference;
    const target = r.name ?? r.path ?? `${r.relation}:${r.id}`;
    parts.push(`→ ${oneLine(target, 60)}${r.name !== null && r.path !== null ? ` (${r.path})` : ''}${r.resolutionStatus === 'resolved' ? '' : ` (${r.resolutionStatus})`}`);
  }
  if (a.pathLink) parts.push(`→ ${a.pathLink.path}${a.pathLink.resolutionStatus === 'resolved' ? '' : ` (${a.pathLink.resolutionStatus})`}`);
  if (a.placeholder) parts.push(`→ ${oneLine(a.placeholder.text ?? `${a.placeholder.table}:${a.placeholder.key}`, 60)}${a.placeholder.resolutionStatus === 'resolved' ? '' : ` (${a.placeholder.resolutionStatus})`}`);
  if (a.image) parts.push(`image ${a.image.path}[${a.image.index}]`);
  return parts.join(' ');
}

function nextSteps(page: ExplainOutput, text: string, section: string | undefined): string[] {
  const base = { workspaceId: page.workspaceId, expectedRevision: page.revision, filePath: page.filePath, ...(section !== undefined ? { section } : {}) };
  const ext = extensionOfPath(page.filePath);
  const lines = ['## 下一步 / Next'];
  if (page.nextCursor) lines.push(`- 后面的标注（同样参数加 cursor）/ the next annotations (same arguments plus cursor): ${toolCall(EXPLAIN_TOOL, { ...base, cursor: page.nextCursor })}`);
  lines.push(
    `- 某个字段的完整说明、来源和全部枚举值 / a field's full text, sources and enum values: ${toolCall(GET_TOOL, { documentId: '<上面的 doc / a doc above>', rulesRevision: page.rulesRevision })}`,
    `- 指定行的原文 / exact lines: ${toolCall(READ_FILE_TOOL, { workspaceId: page.workspaceId, filePath: page.filePath, startLine: 1, endLine: Math.min(text.split('\n').length, 40) })}`,
    `- 一个标签在规则中的一般含义 / what a tag means in general: prompt ${TAG_MEANING_PROMPT}, or ${toolCall(SEARCH_TOOL, { ...(ext !== undefined ? { extensions: [ext] } : {}), section: '<tag>', pvfVersion: 'all' })}`,
  );
  return lines;
}
