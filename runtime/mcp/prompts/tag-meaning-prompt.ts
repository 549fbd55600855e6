/**
 * The prompt "what does this tag mean": a task for the model plus the rule documents of one section
 * tag in one file type, filled by the library calls behind pvf_annotation_search and
 * pvf_annotation_get (title, meaning, where in the tag, values, trust and sources), cut to the prompt
 * budget. When the rules know nothing, the prompt says so and what to try, and asks the model not to
 * guess.
 */
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';
import type { Bundle } from '../../bundle/load-bundle.js';
import { PvfdocError } from '../../errors.js';
import { EXPLAIN_TOOL } from '../../explain/explain-file.js';
import { getDocument, GET_TOOL } from '../../get/get-document.js';
import type { GetOutput } from '../../get/get-schema.js';
import { normalizeSection, searchDocuments, SEARCH_TOOL } from '../../search/search-documents.js';
import type { SearchInput, SearchItem, SearchOutput } from '../../search/search-schema.js';
import type { ServerContext } from '../server-context.js';
import { completeExtensions, completeSections, completeVersions, knownExtensions, normalizeExtension, optionalCompletable, sectionNamesFor } from './prompt-completions.js';
import { EXPLAIN_FILE_PROMPT } from './prompt-names.js';
import { fitLines, oneLine, PROMPT_BUDGET_BYTES, promptResult, toolCall, utf8Bytes } from './prompt-text.js';

/** Search hits listed, and how many of them are got in full (the rest are one line each). */
const SEARCH_LIMIT = 10;
const DETAILED = 4;
/** Enum values shown per document; pvf_annotation_get pages the rest. */
const VALUES_LIMIT = 30;
/** A document's content shown, in code points; pvf_annotation_get has it whole. */
const CONTENT_POINTS = 600;
/** Similar tag names offered when a tag is unknown. */
const MAX_CLOSE_SECTIONS = 12;

export function tagMeaningArgs(ctx: ServerContext) {
  const bundle = () => ctx.rules.current().bundle;
  return {
    ext: completable(z.string().min(1).max(32).describe('文件类型，如 equ 或 .equ / file type, e.g. "equ" or ".equ"'), (typed) => completeExtensions(bundle(), typed)),
    section: completable(z.string().min(1).max(200).describe('标签名，如 rarity 或 [rarity] / section tag, e.g. "rarity" or "[rarity]"'), (typed, context) =>
      completeSections(bundle(), typed, context?.arguments?.ext),
    ),
    pvfVersion: optionalCompletable(z.string().max(32), '可选：客户端版本，如 110US；默认 all（不按版本筛选）/ optional client version; default "all"', (typed) =>
      completeVersions(bundle(), typed),
    ),
  };
}

type TagMeaningArgs = { ext: string; section: string; pvfVersion?: string | undefined };

export async function fillTagMeaningPrompt(ctx: ServerContext, args: TagMeaningArgs): Promise<GetPromptResult> {
  const { bundle } = ctx.rules.current();
  const ext = checkExtension(bundle, args.ext);
  const section = normalizeSection(args.section);
  if (section === '') {
    throw new PvfdocError('INVALID_ARGUMENT', 'section is empty', { hint: 'Give a section tag name, e.g. "rarity" or "[rarity]".' });
  }
  const pvfVersion = args.pvfVersion !== undefined && args.pvfVersion.trim() !== '' ? args.pvfVersion.trim() : 'all';
  const query: SearchInput = { extensions: [ext], section, pvfVersion, limit: SEARCH_LIMIT };
  const options = ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {};
  const found = searchDocuments(bundle, query, options);
  const tag = `[${section}]`;
  if (found.items.length === 0) return nothingKnown(closeSections(bundle, section, ext), ext, tag, query, found, searchDocuments(bundle, { ...query, status: 'all', limit: 1 }, options).totalMatches);

  const details = found.items.slice(0, DETAILED).map((item) => getDocument(bundle, { documentId: item.documentId, rulesRevision: found.rulesRevision, valuesLimit: VALUES_LIMIT }, options));
  const task = [
    `请说明 DNF 的 PVF \`${ext}\` 文件中标签 \`${tag}\` 的含义（客户端版本：${versionText(found)}）：它是做什么的，里面每个 token 怎么写、取什么值（枚举值和特殊值）、引用什么对象；有多条定义时说明它们的区别（版本、路径、状态）。`,
    '只依据下面 pvfdoc 的规则文档回答，不要编造没有列出的取值；trust 为 likely 或 unverified 的说明要注明不确定，并给出来源。这些规则描述的是这类文件，不证明某个文件里一定有这个标签。用中文回答，标签名和取值保留原文。',
    '',
    `Explain what the tag \`${tag}\` means in DNF PVF \`${ext}\` files (client version: ${versionText(found)}): what it is for, how each token is written, its values and references; when several definitions apply, how they differ. Answer only from the documents below; mark likely/unverified ones as uncertain and cite their sources.`,
  ].join('\n');
  const head = [
    '# pvfdoc 查到的规则文档 / Rule documents pvfdoc found',
    `${SEARCH_TOOL} ${JSON.stringify(query)} → ${found.totalMatches} 条 / documents (rulesRevision ${found.rulesRevision})`,
  ];
  const next = nextSteps(found, ext, tag, details);
  let left = PROMPT_BUDGET_BYTES - utf8Bytes(task) - utf8Bytes([...head, ...next].join('\n')) - 512;
  const rest = found.items.slice(DETAILED);
  const others = fitLines(rest.map(itemLine), Math.min(2048, Math.floor(left / 4)), (n) => `- …另有 ${n} 条 / ${n} more: ${SEARCH_TOOL}`);
  left -= utf8Bytes(others.join('\n')) + 64;
  const detailed: string[] = [];
  for (const [i, got] of details.entries()) {
    // Each document gets an equal share of what is left, and what one leaves unused goes to the next.
    const share = Math.floor(left / (details.length - i));
    const lines = fitLines(documentLines(i + 1, got), share, () => `  …（其余见 / the rest: ${toolCall(GET_TOOL, { documentId: got.document.documentId, rulesRevision: got.rulesRevision })}）`);
    left -= utf8Bytes(lines.join('\n')) + 1;
    detailed.push(...lines);
  }
  const more = found.totalMatches > found.items.length ? [`（共 ${found.totalMatches} 条，以上是前 ${found.items.length} 条 / first ${found.items.length} of ${found.totalMatches}: nextCursor ${found.nextCursor ?? ''}）`] : [];
  const data = [...head, '', ...detailed, ...(others.length > 0 ? ['', '其他定义 / Other definitions:', ...others] : []), ...more, '', ...next].join('\n');
  return promptResult(`${ext} 文件的 ${tag} 是什么意思 / What ${tag} means in ${ext} files`, [task, data]);
}

/** The file type as ".equ", one the rules name: otherwise every tag of it would seem unknown. */
function checkExtension(bundle: Bundle, raw: string): string {
  const ext = normalizeExtension(raw);
  const known = knownExtensions(bundle);
  if (!/^\.[^./\\\s]+$/.test(ext)) {
    throw new PvfdocError('INVALID_ARGUMENT', `ext must be a file type such as "equ" or ".equ": got ${JSON.stringify(raw)}`, {
      hint: `Give one file type without a path, e.g. ${known.slice(0, 5).join(', ')}.`,
      data: { ext: raw, knownExtensions: known },
    });
  }
  if (!known.includes(ext)) {
    throw new PvfdocError('INVALID_ARGUMENT', `no rule names the file type ${ext}`, {
      hint: `Use one of the file types the rules know: ${known.join(', ')}.`,
      data: { ext, knownExtensions: known },
    });
  }
  return ext;
}

function versionText(found: SearchOutput): string {
  return found.context.pvfVersion === 'all' ? 'all（所有版本 / every version）' : found.context.pvfVersion || '(unknown)';
}

/** Where in the tag a definition applies, from its complete target. */
function placeOf(got: GetOutput): string {
  const t = got.resolvedDefinition.target;
  if (t.kind === 'section') return '标签本身 / the tag itself';
  if (t.kind === 'path') return '路径 / path';
  if (t.recordTokens !== null) return `每 ${t.recordTokens} 个 token 一条记录 / records of ${t.recordTokens} tokens${t.offset !== null ? `, token ${t.offset} of each` : ''}`;
  if (t.range !== null) return `token ${t.range.start}–${t.range.endExclusive - 1}`;
  if (t.index !== null) return `第 ${t.index} 个 token / token ${t.index}`;
  return 'tokens';
}

function documentLines(n: number, got: GetOutput): string[] {
  const d = got.document;
  const a = got.resolvedDefinition.annotation;
  const versions = d.pvfVersions.length === 0 ? '全部 / all' : d.pvfVersions.join(', ');
  const lines = [
    `## ${n}. ${d.title} — ${d.kind} ${d.ruleId ?? d.fieldId ?? ''} (doc ${d.documentId})`,
    `- 位置 / where: ${placeOf(got)}; 类型 / type: ${a.type}${a.relation ? ` → ${a.relation}` : ''}; 版本 / versions: ${versions}; 状态 / status: ${d.status}${d.statusReason ? ` (${oneLine(d.statusReason, 120)})` : ''}`,
    `- 可信度 / trust: ${d.trust ?? '未说明 / not stated'}; 来源 / sources: ${d.sources.length > 0 ? d.sources.join(', ') : '—'}`,
    `- 说明 / meaning: ${oneLine(d.content, CONTENT_POINTS)}`,
  ];
  if (a.sentinels && a.sentinels.length > 0) lines.push(`- 特殊值 / sentinels: ${a.sentinels.map(([v, l]) => `${v}=${oneLine(l, 30)}`).join('、')}`);
  if (a.columns && a.columns.length > 0) lines.push(`- 列 / columns: ${a.columns.map((c) => c || d.title).join(', ')}`);
  if (got.valueCount > 0) {
    const shown = got.values.map((v) => `${v.key}=${oneLine(v.label, 30)}`).join('、');
    lines.push(`- 取值 / values (${got.values.length}/${got.valueCount}${got.valuesNextCursor ? `; 更多 / more: valuesCursor ${got.valuesNextCursor}` : ''}): ${shown}`);
  }
  for (const r of got.relations) lines.push(`- 引用 / relation ${r.name}: ${r.listPaths.slice(0, 3).join(', ')}`);
  return lines;
}

function itemLine(i: SearchItem): string {
  return `- ${i.title} — ${i.kind} ${i.ruleId ?? i.fieldId ?? ''} (doc ${i.documentId}${i.trust ? `, trust ${i.trust}` : ''}${i.pvfVersions.length > 0 ? `, ${i.pvfVersions.join('/')}` : ''}): ${oneLine(i.summary, 100)}`;
}

function nextSteps(found: SearchOutput, ext: string, tag: string, details: readonly GetOutput[]): string[] {
  const first = details[0]?.document.documentId ?? '<doc>';
  return [
    '## 下一步 / Next',
    `- 完整说明和全部取值 / full text and every value: ${toolCall(GET_TOOL, { documentId: first, rulesRevision: found.rulesRevision })}`,
    `- 查一个取值 / look up one value: ${toolCall(GET_TOOL, { documentId: first, rulesRevision: found.rulesRevision, value: '<key>' })}`,
    `- 在实际文件里看 / in an actual file: prompt ${EXPLAIN_FILE_PROMPT}, or ${toolCall(EXPLAIN_TOOL, { workspaceId: '<id>', expectedRevision: '<revision>', filePath: `<path${ext}>`, section: tag })}`,
  ];
}

/** Tags of the file type that contain the name or are contained in it, else that start alike. */
function closeSections(bundle: Bundle, section: string, ext: string): string[] {
  const names = sectionNamesFor(bundle, ext);
  const folded = (name: string) => normalizeSection(name);
  const overlapping = names.filter((n) => folded(n).includes(section) || section.includes(folded(n)));
  const close = overlapping.length > 0 ? overlapping : names.filter((n) => folded(n).startsWith(section.slice(0, 2)));
  return close.slice(0, MAX_CLOSE_SECTIONS);
}

/** No effective definition: say so plainly, what the search noticed, and what to try instead. */
function nothingKnown(close: readonly string[], ext: string, tag: string, query: SearchInput, found: SearchOutput, inactive: number): GetPromptResult {
  const task = [
    `用户想知道 DNF 的 PVF \`${ext}\` 文件中标签 \`${tag}\` 是什么意思，但 pvfdoc 的规则里没有这个标签的说明（客户端版本：${versionText(found)}）。`,
    '请如实告诉用户目前没有这条说明，不要猜测它的含义；可以按下面「可以试试」里的办法继续查，或请用户提供这个标签在实际文件中的写法。',
    '',
    `The user asks what \`${tag}\` means in DNF PVF \`${ext}\` files, but pvfdoc's rules do not describe it. Say so plainly and do not guess; try the steps below or ask the user for an example.`,
  ].join('\n');
  const lines = [
    '# pvfdoc 没有找到 / Nothing found',
    `${SEARCH_TOOL} ${JSON.stringify(query)} → 0 (rulesRevision ${found.rulesRevision})`,
    ...(found.warnings ?? []).map((w) => `- ${oneLine(w, 400)}`),
    ...(close.length > 0 ? [`- ${ext} 的规则知道的相近标签 / similar tags the rules know for ${ext}: ${close.map((n) => `[${n}]`).join(', ')}`] : []),
    ...(inactive > 0 ? [`- 另有 ${inactive} 条定义在这个版本不生效或被覆盖 / ${inactive} definitions are disabled, overridden or not for this version: ${toolCall(SEARCH_TOOL, { ...query, status: 'all' })}`] : []),
    '',
    '## 可以试试 / Try',
    `- 不限标签、按关键词搜 / by keyword: ${toolCall(SEARCH_TOOL, { query: tag.slice(1, -1), extensions: [ext], pvfVersion: 'all' })}`,
    `- 所有版本、含未生效的 / every version, inactive too: ${toolCall(SEARCH_TOOL, { extensions: [ext], section: tag.slice(1, -1), pvfVersion: 'all', status: 'all' })}`,
    `- 看实际文件里它的上下文 / its context in an actual file: prompt ${EXPLAIN_FILE_PROMPT}, or ${EXPLAIN_TOOL} on a ${ext} file that has it`,
    `- 这个文件类型的规则知道的标签 / tags the rules know for ${ext}: 补全 prompt 参数 section（completion/complete）或 ${toolCall(SEARCH_TOOL, { extensions: [ext], pvfVersion: 'all', targetKinds: ['section'] })}`,
  ];
  return promptResult(`${ext} 文件的 ${tag}：规则中没有说明 / ${tag} in ${ext} files: not described`, [task, lines.join('\n')]);
}
