/**
 * The text of one tag entry, as Markdown for the two editors. Both render Markdown, with differences
 * that decide what may appear in the text (sources in docs/editors.md):
 * - pvfUtility renders `Comment` with Markdig (advanced extensions: emphasis extras such as `~sub~`,
 *   `^sup^` and `==mark==`, math `$…$`, pipe tables, footnotes), inline code included;
 * - pvf-parser-ts (VS Code) bolds the first line of a multi-line description and, when any later line
 *   holds a backtick pair, `.ani` or starts with `/`, shows all later lines as one code block, which
 *   would turn the links into plain text. Backtick strings become 「…」 there, and `.ani` and a leading
 *   `/` get a zero-width space so that test never fires.
 * Rule text is escaped everywhere, so a `<int>` placeholder or a `1~5` range reads as written.
 */
import type { Trust } from '../../runtime/bundle/schema.js';
import type { TagKnowledge, TagPart } from './tag-knowledge.js';

export type MarkdownDialect = 'markdig' | 'vscode';

/** Trust labels of the reference site (site/src/lib/labels.ts), so both say the same. */
export const TRUST_LABEL = { confirmed: '已确认', likely: '较可信', unverified: '未验证' } as const satisfies Record<Trust, string>;

const ZWSP = '\u200b';

/** List files named per reference; a union of every job's skill list has dozens. */
const MAX_LIST_PATHS_SHOWN = 4;

/** Markdown for one tag entry, lines joined by "\n"; without the title (the editors show it apart). */
export function entryMarkdown(tag: TagKnowledge, dialect: MarkdownDialect): string {
  const blocks: string[] = [];
  const tokens: string[] = [];
  const seen = new Set<string>();
  const sectionRules = tag.parts.filter((p) => p.role === 'section').length;
  for (const part of tag.parts) {
    const text = part.role === 'section' ? sectionBlock(part, dialect, sectionRules > 1) : tokenItem(part, dialect);
    // An explicit rule and the field rule it reuses may say the same thing twice.
    if (seen.has(text)) continue;
    seen.add(text);
    if (part.role === 'section') blocks.push(text);
    else tokens.push(text);
  }
  if (tokens.length > 0) blocks.push(`${dialect === 'vscode' ? '值：' : '**值 / values**'}\n${tokens.join('\n')}`);
  return blocks.join('\n\n');
}

/** The entry's title: the section rules' titles, else the first token rule's. Plain text. */
export function entryTitle(tag: TagKnowledge): string {
  const sectionTitles = unique(tag.parts.filter((p) => p.role === 'section').map((p) => p.title.trim()));
  if (sectionTitles.length > 0) return sectionTitles.join(' / ');
  return tag.parts[0]?.title.trim() || tag.name;
}

/** The layers the entry's rules come from, for the editors' author field. */
export function entryAuthors(tag: TagKnowledge): string {
  return `pvfdoc (${unique(tag.parts.map((p) => p.layer)).join(', ')})`;
}

function sectionBlock(part: TagPart, dialect: MarkdownDialect, withTitle: boolean): string {
  const lines: string[] = [];
  // With more than one rule on the tag itself, each says which one it is.
  const content = part.content.trim();
  if (withTitle && part.title.trim() !== '') lines.push(`**${escapeText(part.title.trim(), dialect)}**`);
  if (content !== '') lines.push(...escapeLines(content, dialect));
  const meta = metaLine(part, dialect);
  if (meta !== '') lines.push(meta);
  return hardBreaks(lines).join('\n');
}

function tokenItem(part: TagPart, dialect: MarkdownDialect): string {
  const head = [`- **${escapeText(part.title.trim() || '（无标题）', dialect)}**`];
  if (part.position !== null) head.push(`（${escapeText(part.position, dialect)}）`);
  const content = part.content.trim();
  const [first, ...rest] = content === '' ? [] : escapeLines(content, dialect);
  const lines = hardBreaks([first !== undefined ? `${head.join('')}：${first}` : head.join(''), ...rest.map((line) => `  ${line}`)]);
  for (const detail of details(part, dialect)) lines.push(`  - ${detail}`);
  const meta = metaLine(part, dialect);
  if (meta !== '') lines.push(`  - ${meta}`);
  return lines.join('\n');
}

/** What the values mean: columns, enum values, fixed values, the list a reference is looked up in. */
function details(part: TagPart, dialect: MarkdownDialect): string[] {
  const out: string[] = [];
  const code = (v: string) => (dialect === 'markdig' ? inlineCode(v) : escapeText(v, dialect));
  if (part.columns !== null && part.columns.length > 0) {
    const column = (c: string, i: number) => (c.trim() === '' ? part.title.trim() : c.trim()).replaceAll('{column}', String(i + 1));
    out.push(`各列：${part.columns.map((c, i) => `${i + 1}. ${escapeText(column(c, i), dialect)}`).join('；')}`);
  }
  const written = `${part.title}${part.content}${(part.columns ?? []).join('')}`;
  const placeholders = [
    /\{(record|column)\}/.test(written) ? '{record}、{column} 是从 1 数起的记录号、列号' : '',
    written.includes('{recordIndex}') ? '{recordIndex} 是从 0 数起的记录号' : '',
  ].filter((note) => note !== '');
  if (placeholders.length > 0) out.push(placeholders.join('，'));
  if (part.values.total > 0) {
    const listed = part.values.shown.map(([k, l]) => `${code(k)} = ${escapeText(l, dialect)}`).join('、');
    const more = part.values.total > part.values.shown.length ? `…（共 ${part.values.total} 个${part.url !== null ? '，完整列表见参考站' : ''}）` : '';
    out.push(`取值：${listed}${more}`);
  }
  if (part.sentinels.length > 0) out.push(`特殊值：${part.sentinels.map(([k, l]) => `${code(k)} = ${escapeText(l, dialect)}`).join('、')}`);
  if (part.reference !== null) {
    const paths = part.reference.listPaths;
    const more = paths.length > MAX_LIST_PATHS_SHOWN ? ` 等 ${paths.length} 个列表` : '';
    const where = paths.length > 0 ? `（在 ${paths.slice(0, MAX_LIST_PATHS_SHOWN).map(code).join('、')}${more} 中查找）` : '';
    out.push(`引用：${escapeText(part.reference.relation, dialect)}${where}`);
  }
  if (part.type === 'path' || part.type === 'image') out.push(`${part.type === 'image' ? '图像路径' : '文件路径'}${part.pathRoot ? `，相对于 ${code(part.pathRoot)}` : ''}`);
  return out;
}

/** Trust, where the rule applies, and the link to the rule's page. */
function metaLine(part: TagPart, dialect: MarkdownDialect): string {
  const items: string[] = [];
  if (part.trust !== null) items.push(`可信度：${TRUST_LABEL[part.trust]}`);
  if (part.pvfVersions.length > 0) items.push(`仅 ${part.pvfVersions.map((v) => escapeText(v, dialect)).join('、')}`);
  if (part.glob !== '') items.push(`仅路径 ${dialect === 'markdig' ? inlineCode(part.glob) : escapeText(part.glob, dialect)}`);
  for (const c of part.when) items.push(escapeText(`仅当 [${c.section}] 第 ${c.index} 个为 ${c.values.map((v) => `\`${v}\``).join(' 或 ')}`, dialect));
  if (part.anyExtension) items.push('适用于所有文件类型');
  if (part.url !== null) items.push(`[参考站](${part.url.replaceAll('(', '%28').replaceAll(')', '%29')})`);
  return items.join(' · ');
}

function escapeLines(text: string, dialect: MarkdownDialect): string[] {
  return text.split(/\r?\n/).map((line) => escapeLineStart(escapeText(line.trimEnd(), dialect)));
}

/**
 * Rule text as Markdown that renders as written. Backtick strings stay inline code for Markdig and
 * become 「…」 for VS Code; everything else that Markdown (or Markdig's extras) would read is escaped.
 */
export function escapeText(text: string, dialect: MarkdownDialect): string {
  const pieces = text.split(/(`[^`\n]+`)/);
  return pieces
    .map((piece, i) => {
      if (i % 2 === 1) return dialect === 'markdig' ? inlineCode(piece.slice(1, -1)) : `「${escapeInline(piece.slice(1, -1), dialect)}」`;
      return escapeInline(piece, dialect);
    })
    .join('');
}

function escapeInline(text: string, dialect: MarkdownDialect): string {
  // Markdig's extras also read `$…$` (math), `^…^` (superscript) and `==…==` (mark); VS Code's do not.
  const special = dialect === 'markdig' ? /[\\*~<|$^`]|==/g : /[\\*~<|`]/g;
  let out = text
    .replace(special, (c) => (c === '`' ? (dialect === 'markdig' ? '\\`' : '＇') : c === '==' ? '\\=\\=' : `\\${c}`))
    // An underscore between letters or digits never starts emphasis; only the others are escaped.
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    // A bracket run is a link (or a link definition) only when "(", "[" or ":" follows it.
    .replace(/\[([^[\]]*)\](?=[([:])/g, '\\[$1\\]');
  if (dialect === 'vscode') out = out.replace(/\.(ani)\b/gi, `.${ZWSP}$1`);
  return out;
}

/**
 * Escapes what would start a block at the start of a line: heading, quote, list, definition (Markdig),
 * a setext underline.
 */
function escapeLineStart(line: string): string {
  let out = line;
  const setext = /^(\s*)([=-])(\2*\s*)$/.exec(line);
  const match = /^(\s*)(#|>|\+|-|:|(\d+)([.)]))(?=\s|$)/.exec(line);
  if (setext) {
    out = `${setext[1] ?? ''}\\${setext[2] ?? ''}${setext[3] ?? ''}`;
  } else if (match) {
    const [, indent = '', marker = '', digits, dot] = match;
    out = digits !== undefined ? `${indent}${digits}\\${dot}${line.slice(match[0].length)}` : `${indent}\\${marker}${line.slice(match[0].length)}`;
  }
  // pvf-parser-ts shows the rest of the entry as code when a line starts with "/".
  return /^\s*\//.test(out) ? `${ZWSP}${out}` : out;
}

/** Inline code that holds any text: the fence is one backtick longer than the longest run inside. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Lines of one paragraph that keep their breaks (two trailing spaces: a hard break in both editors). */
function hardBreaks(lines: readonly string[]): string[] {
  return lines.map((line, i) => (i < lines.length - 1 ? `${line}  ` : line));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}
