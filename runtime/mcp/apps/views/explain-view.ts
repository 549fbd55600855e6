/**
 * The explain view (ui://pvfdoc/explain-view.html), shown by hosts for `pvf_annotation_explain`
 * results: the file's lines with every annotated range marked by type, and a side panel with the
 * picked token — what explain said, then its whole document from `pvf_annotation_get`. The explain
 * result holds ranges, not the text, so the lines come from `read_file`; "load more" follows
 * `nextCursor` with the model's own arguments. Every call goes through the host.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ExplainDocument, ExplainOutput, ExplainOutputAnnotation, ExplainOutputWarning } from '../../../explain/explain-schema.js';
import type { GetOutput } from '../../../get/get-schema.js';
import { answerOf, callTool, startView, tellModel } from './app-shell.js';
import { renderDocument, trustChip } from './document-panel.js';
import { append, asButton, el, field, fieldList, onActivate, replaceChildren } from './dom.js';
import { cutLines, type FileWindow } from './explain-lines.js';
import { stringsFor, type ViewStrings } from './i18n.js';

/** What the view reads of a read_file answer (runtime/mcp/tools/read-file.ts, ReadFileOutputSchema). */
interface ReadFileAnswer extends FileWindow {
  textRevision: string;
  lineCount: number;
  truncated: boolean;
}

interface Loaded {
  first: ExplainOutput;
  annotations: ExplainOutputAnnotation[];
  documents: Record<string, ExplainDocument>;
  warnings: ExplainOutputWarning[];
  nextCursor: string | null;
}

function isExplainOutput(value: unknown): value is ExplainOutput {
  const v = value as Partial<ExplainOutput> | null;
  return typeof v === 'object' && v !== null && v.schemaVersion === 3 && Array.isArray(v.annotations) && typeof v.filePath === 'string';
}

function position(a: ExplainOutputAnnotation): string {
  return `${a.start.line}:${a.start.column}–${a.end.line}:${a.end.column}`;
}

function sectionOf(a: ExplainOutputAnnotation): string | null {
  if (a.section === null) return null;
  return `[${a.section}]#${a.occurrence ?? 0}${a.tokenIndex === null ? '' : ` · token ${a.tokenIndex}`}`;
}

function documentIdsOf(a: ExplainOutputAnnotation): string[] {
  return a.blocks ? a.blocks.map((b) => b.documentId) : a.documentIds;
}

class ExplainView {
  private args: Record<string, unknown> | null = null;
  private loaded: Loaded | null = null;
  private window: ReadFileAnswer | null = null;
  private selected: number | null = null;
  /** Bumped on every pick, so a late document answer for an earlier pick is dropped. */
  private pick = 0;
  private readonly tokens = new Map<number, HTMLElement[]>();
  private readonly documentCache = new Map<string, Promise<GetOutput | string>>();

  private readonly header = el('header', { className: 'bar' });
  private readonly notes = el('details', { className: 'notes', attrs: { hidden: '' } });
  private readonly code = el('div', { className: 'code', attrs: { role: 'list', 'aria-label': 'file' } });
  private readonly panel = el('aside', { className: 'panel', attrs: { 'aria-live': 'polite' } });
  private readonly more = el('button', { className: 'more', attrs: { type: 'button', hidden: '' } });
  private readonly status = el('p', { className: 'status', attrs: { role: 'status' } });

  constructor(
    private readonly app: App,
    private readonly t: ViewStrings,
    root: HTMLElement,
  ) {
    this.more.textContent = t.loadMore;
    replaceChildren(this.panel, el('p', { className: 'muted' }, t.pickToken));
    this.status.textContent = t.waiting;
    replaceChildren(root, this.header, this.notes, el('div', { className: 'layout' }, this.code, this.panel), el('footer', { className: 'bar' }, this.more, this.status));
    onActivate(this.code, '[data-a]', (token) => void this.select(Number(token.dataset.a)));
    onActivate(this.panel, '[data-document]', (button) => void this.showDocument(button.dataset.document ?? '', this.pick));
    this.more.addEventListener('click', () => void this.loadMore());
  }

  setInput(args: Record<string, unknown>): void {
    this.args = args;
  }

  async showResult(result: CallToolResult): Promise<void> {
    const answer = answerOf<ExplainOutput>(result);
    if (!answer.ok || !isExplainOutput(answer.value)) {
      this.fail(answer.text);
      return;
    }
    const out = answer.value;
    this.loaded = { first: out, annotations: [...out.annotations], documents: { ...out.documents }, warnings: [...out.warnings], nextCursor: out.nextCursor };
    this.window = null;
    this.selected = null;
    this.renderHeader();
    this.renderNotes();
    await this.refreshText();
    this.scrollToLine(out.annotations[0]?.start.line);
  }

  /** Scrolls the code pane (not the document) so that a line of the first page is in sight. */
  private scrollToLine(line: number | undefined): void {
    const row = line === undefined ? null : this.code.querySelector<HTMLElement>(`.line[data-line="${line}"]`);
    if (row) this.code.scrollTop = Math.max(0, row.offsetTop - this.code.clientHeight / 4);
  }

  private fail(text: string): void {
    this.status.textContent = `${this.t.failed}: ${text}`;
    this.status.dataset.state = 'error';
  }

  private renderHeader(): void {
    const loaded = this.loaded;
    if (!loaded) return;
    const { first } = loaded;
    const counts = new Map<string, number>();
    for (const a of loaded.annotations) counts.set(a.type, (counts.get(a.type) ?? 0) + 1);
    const legend = el('ul', { className: 'legend' });
    for (const [type, count] of counts) legend.append(el('li', {}, el('span', { className: `swatch t-${type}` }), `${this.t.types[type] ?? type} ${count}`));
    replaceChildren(
      this.header,
      el('h1', {}, first.filePath),
      el(
        'p',
        { className: 'muted' },
        [this.t.annotations(loaded.annotations.length), loaded.nextCursor ? this.t.more : null, first.pvfVersion || null, `revision ${first.revision}`].filter(Boolean).join(' · '),
      ),
      legend,
    );
  }

  private renderNotes(): void {
    const loaded = this.loaded;
    if (!loaded) return;
    const blocks: Node[] = [];
    if (loaded.first.pathContext.length > 0) {
      const list = el('ul', {});
      for (const note of loaded.first.pathContext) {
        const summary = loaded.documents[note.documentId]?.summary;
        list.append(el('li', {}, el('span', { className: 'mono' }, note.scopePath || '/'), ' ', el('strong', {}, note.title), summary ? ` — ${summary}` : ''));
      }
      blocks.push(list);
    }
    if (loaded.warnings.length > 0) {
      const list = el('ul', { className: 'warnings' });
      for (const w of loaded.warnings) list.append(el('li', {}, w.start ? `${w.start.line}:${w.start.column} ` : '', `${w.code}: ${w.message}`));
      blocks.push(el('h2', {}, this.t.warnings), list);
    }
    const title = [loaded.first.pathContext.length > 0 ? `${this.t.pathNotes} (${loaded.first.pathContext.length})` : null, loaded.warnings.length > 0 ? `${this.t.warnings} (${loaded.warnings.length})` : null].filter(Boolean).join(' · ');
    replaceChildren(this.notes, el('summary', {}, title), ...blocks);
    this.notes.hidden = blocks.length === 0;
    // Warnings matter more than folder notes: show them unfolded.
    this.notes.open = loaded.warnings.length > 0;
  }

  /** Reads the lines the loaded annotations need: the whole file when it fits one read_file answer. */
  private async refreshText(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    const lines = loaded.annotations.flatMap((a) => [a.start.line, a.end.line]);
    const need = { from: Math.min(...lines, 1), to: Math.max(...lines, 1) };
    const covers = (w: ReadFileAnswer | null) => w !== null && w.startLine <= need.from && w.endLine >= need.to;
    if (!covers(this.window)) {
      this.status.textContent = this.t.loadingText;
      const base = { workspaceId: loaded.first.workspaceId, filePath: loaded.first.filePath };
      let read = await callTool<ReadFileAnswer>(this.app, 'read_file', this.window === null ? base : { ...base, startLine: need.from, endLine: need.to });
      if (read.ok && read.value && !covers(read.value) && read.value.truncated) {
        read = await callTool<ReadFileAnswer>(this.app, 'read_file', { ...base, startLine: need.from, endLine: need.to });
      }
      if (!read.ok || !read.value) {
        this.fail(read.text);
        return;
      }
      this.window = read.value;
    }
    this.renderCode();
  }

  private renderCode(): void {
    const loaded = this.loaded;
    const window = this.window;
    if (!loaded || !window) return;
    const { lines, shown } = cutLines(window, loaded.annotations.map((a) => a.range));
    this.tokens.clear();
    const rows: HTMLElement[] = [];
    for (const line of lines) {
      const source = el('span', { className: 'src' });
      for (const segment of line.segments) {
        if (segment.annotation === null) {
          source.append(segment.text);
          continue;
        }
        const a = loaded.annotations[segment.annotation] as ExplainOutputAnnotation;
        const token = el('span', { className: `tok t-${a.type}`, attrs: { 'data-a': String(segment.annotation), title: `${a.title}${a.valueLabel ? `: ${a.valueLabel}` : ''}` } }, segment.text);
        asButton(token, [a.title, a.value, a.valueLabel].filter(Boolean).join(' '));
        if (segment.annotation === this.selected) token.classList.add('sel');
        const list = this.tokens.get(segment.annotation) ?? [];
        list.push(token);
        this.tokens.set(segment.annotation, list);
        source.append(token);
      }
      rows.push(el('div', { className: 'line', attrs: { role: 'listitem', 'data-line': String(line.number) } }, el('span', { className: 'ln', attrs: { 'aria-hidden': 'true' } }, String(line.number)), source));
    }
    this.code.replaceChildren(...rows);
    const hidden = loaded.annotations.filter((a, i) => a.range.end > a.range.start && !shown.has(i)).length;
    const notes = [window.textRevision !== loaded.first.textRevision ? this.t.textChanged : null, hidden > 0 ? this.t.notShown(hidden) : null].filter(Boolean);
    this.status.textContent = notes.join(' ');
    this.status.dataset.state = notes.length > 0 ? 'warning' : 'done';
    this.more.hidden = loaded.nextCursor === null;
    this.more.disabled = false;
    this.more.textContent = this.t.loadMore;
    this.renderHeader();
  }

  private async loadMore(): Promise<void> {
    const loaded = this.loaded;
    if (!loaded || loaded.nextCursor === null) return;
    this.more.disabled = true;
    this.more.textContent = this.t.loading;
    const { cursor: _previous, ...args } = this.args ?? { workspaceId: loaded.first.workspaceId, expectedRevision: loaded.first.revision, filePath: loaded.first.filePath };
    const answer = await callTool<ExplainOutput>(this.app, 'pvf_annotation_explain', { ...args, cursor: loaded.nextCursor });
    if (!answer.ok || !isExplainOutput(answer.value)) {
      this.more.disabled = false;
      this.more.textContent = this.t.loadMore;
      this.fail(answer.text);
      return;
    }
    const page = answer.value;
    loaded.annotations.push(...page.annotations);
    Object.assign(loaded.documents, page.documents);
    const seen = new Set(loaded.warnings.map((w) => `${w.code} ${w.range?.start ?? ''} ${w.message}`));
    loaded.warnings.push(...page.warnings.filter((w) => !seen.has(`${w.code} ${w.range?.start ?? ''} ${w.message}`)));
    loaded.nextCursor = page.nextCursor;
    this.renderNotes();
    await this.refreshText();
  }

  private async select(index: number): Promise<void> {
    const loaded = this.loaded;
    const a = loaded?.annotations[index];
    if (!loaded || !a) return;
    for (const token of this.tokens.get(this.selected ?? -1) ?? []) token.classList.remove('sel');
    for (const token of this.tokens.get(index) ?? []) token.classList.add('sel');
    this.selected = index;
    const pick = ++this.pick;
    const t = this.t;
    const firstDocument = documentIdsOf(a)[0];
    const cited = firstDocument === undefined ? undefined : loaded.documents[firstDocument];
    const status = (s: string) => t.resolution[s] ?? s;
    const reference = a.reference ? [a.reference.name, a.reference.path, `${a.reference.relation}:${a.reference.id}${a.reference.context ? ` ${a.reference.context}` : ''}`, status(a.reference.resolutionStatus)].filter(Boolean).join(' · ') : null;
    const link = a.pathLink ? `${a.pathLink.path} · ${status(a.pathLink.resolutionStatus)}` : null;
    const placeholder = a.placeholder ? `${a.placeholder.text ?? `${a.placeholder.table}:${a.placeholder.key}`} · ${status(a.placeholder.resolutionStatus)}` : null;
    const details = el(
      'section',
      { className: 'selected', attrs: { 'data-selected': String(index) } },
      el('h2', {}, a.title || t.types[a.type] || a.type, ' ', el('span', { className: `chip t-${a.type}` }, t.types[a.type] ?? a.type), a.origin === 'runtime' ? el('span', { className: 'chip' }, 'runtime') : null),
      fieldList([
        field(t.position, position(a)),
        field(t.section, sectionOf(a)),
        field(t.value, shownValue(a)),
        field(t.label, a.valueLabel ?? (a.unknownValue ? t.unknownValue : null)),
        field(t.reference, reference),
        field(t.link, link),
        field(t.placeholder, placeholder),
        field(t.image, a.image ? `${a.image.path} [${a.image.index}]` : null),
        field(t.summary, a.summary ?? cited?.summary),
        field(t.trust, trustChip(t, cited?.trust)),
      ]),
    );
    if (a.blocks && a.blocks.length > 1) {
      const others = el('ul', { className: 'blocks' });
      for (const block of a.blocks) {
        others.append(el('li', {}, el('button', { className: 'link', attrs: { type: 'button', 'data-document': block.documentId } }, block.title, ' ', el('span', { className: 'muted small mono' }, block.ruleId))));
      }
      append(details, el('h3', {}, t.otherDocuments), others);
    }
    const documentSlot = el('div', { className: 'document-slot' });
    replaceChildren(this.panel, details, documentSlot);
    const where = sectionOf(a);
    void tellModel(
      this.app,
      `In the pvfdoc explain view the user selected ${loaded.first.filePath} ${a.start.line}:${a.start.column}${where ? ` ${where}` : ''}: ${a.title}${a.value === null ? '' : ` = ${shownValue(a)}`}${a.valueLabel ? ` (${a.valueLabel})` : ''}${firstDocument ? `; documentId ${firstDocument}, rulesRevision ${loaded.first.rulesRevision}` : ''}.`,
      { tool: 'pvf_annotation_explain', filePath: loaded.first.filePath, line: a.start.line, column: a.start.column, section: a.section, title: a.title, value: a.value, documentId: firstDocument ?? null, rulesRevision: loaded.first.rulesRevision },
    );
    if (firstDocument === undefined) {
      documentSlot.append(el('p', { className: 'muted' }, t.noDocument));
      return;
    }
    await this.showDocument(firstDocument, pick);
  }

  private async showDocument(documentId: string, pick: number): Promise<void> {
    const loaded = this.loaded;
    const a = this.selected === null ? undefined : loaded?.annotations[this.selected];
    const slot = this.panel.querySelector<HTMLElement>('.document-slot');
    if (!loaded || !a || !slot || documentId === '') return;
    for (const button of this.panel.querySelectorAll<HTMLElement>('[data-document]')) button.setAttribute('aria-pressed', String(button.dataset.document === documentId));
    replaceChildren(slot, el('p', { className: 'muted' }, this.t.loadingDocument));
    const value = a.type === 'enum' && a.value !== null && documentId === documentIdsOf(a)[0] ? a.value : undefined;
    const key = `${documentId}\u0000${value ?? ''}`;
    let answer = this.documentCache.get(key);
    if (!answer) {
      answer = callTool<GetOutput>(this.app, 'pvf_annotation_get', { documentId, rulesRevision: loaded.first.rulesRevision, ...(value === undefined ? {} : { value }) }).then((r) => (r.ok && r.value ? r.value : r.text));
      this.documentCache.set(key, answer);
    }
    const got = await answer;
    if (pick !== this.pick) return;
    if (typeof got === 'string') {
      this.documentCache.delete(key);
      replaceChildren(slot, el('p', { className: 'error' }, `${this.t.failed}: ${got}`));
      return;
    }
    replaceChildren(slot, renderDocument(this.t, got));
  }
}

startView('explain-view', (app, locale, root) => new ExplainView(app, stringsFor(locale), root));

/** A value as shown: a float says so, since its canonical value can read as an integer (`1.0` is `1`). */
function shownValue(a: ExplainOutputAnnotation): string | null {
  return a.value === null ? null : a.valueType === 'float' ? `${a.value} (float)` : a.value;
}
