/**
 * The search view (ui://pvfdoc/search-view.html), shown by hosts for `pvf_annotation_search` results:
 * the hits as a list to pick from. Picking one reads the whole document (`pvf_annotation_get`) and
 * tells the model which document the user chose (`ui/update-model-context`); "more" follows
 * `nextCursor` with the model's own arguments. Every call goes through the host.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GetOutput } from '../../../get/get-schema.js';
import type { SearchItem, SearchOutput } from '../../../search/search-schema.js';
import { answerOf, callTool, startView, tellModel } from './app-shell.js';
import { renderDocument, trustChip } from './document-panel.js';
import { el, onActivate, replaceChildren } from './dom.js';
import { stringsFor, type ViewStrings } from './i18n.js';

function isSearchOutput(value: unknown): value is SearchOutput {
  const v = value as Partial<SearchOutput> | null;
  return typeof v === 'object' && v !== null && v.schemaVersion === 1 && Array.isArray(v.items) && typeof v.rulesRevision === 'string';
}

class SearchView {
  private args: Record<string, unknown> | null = null;
  private out: SearchOutput | null = null;
  private items: SearchItem[] = [];
  private picked: number | null = null;
  private pick = 0;

  private readonly header = el('header', { className: 'bar' });
  private readonly list = el('ol', { className: 'hits' });
  private readonly detail = el('section', { className: 'panel', attrs: { 'aria-live': 'polite' } });
  private readonly more = el('button', { className: 'more', attrs: { type: 'button', hidden: '' } });
  private readonly status = el('p', { className: 'status', attrs: { role: 'status' } });

  constructor(
    private readonly app: App,
    private readonly t: ViewStrings,
    root: HTMLElement,
  ) {
    this.more.textContent = t.loadMoreHits;
    this.status.textContent = t.waiting;
    replaceChildren(this.detail, el('p', { className: 'muted' }, t.pickHit));
    replaceChildren(root, this.header, el('div', { className: 'layout' }, el('div', { className: 'hit-column' }, this.list, this.more), this.detail), el('footer', { className: 'bar' }, this.status));
    onActivate(this.list, 'button[data-i]', (button) => void this.choose(Number(button.dataset.i)));
    this.more.addEventListener('click', () => void this.loadMore());
  }

  setInput(args: Record<string, unknown>): void {
    this.args = args;
  }

  showResult(result: CallToolResult): void {
    const answer = answerOf<SearchOutput>(result);
    if (!answer.ok || !isSearchOutput(answer.value)) {
      this.fail(answer.text);
      return;
    }
    this.out = answer.value;
    this.items = [...answer.value.items];
    this.picked = null;
    this.list.replaceChildren();
    this.appendItems(answer.value.items, 0);
    this.render();
  }

  private fail(text: string): void {
    this.status.textContent = `${this.t.failed}: ${text}`;
    this.status.dataset.state = 'error';
  }

  private render(): void {
    const out = this.out;
    if (!out) return;
    const t = this.t;
    const context = [out.context.pvfVersion || null, out.context.filePath, `rulesRevision ${out.rulesRevision}`].filter(Boolean).join(' · ');
    replaceChildren(this.header, el('h1', {}, t.searchTitle), el('p', { className: 'muted' }, `${t.hits(this.items.length, out.totalMatches)} · ${context}`));
    for (const warning of out.warnings ?? []) this.header.append(el('p', { className: 'warning' }, warning));
    if (this.items.length === 0) {
      this.header.append(el('p', {}, t.noHits));
      if (out.suggestions?.length) this.header.append(el('p', { className: 'muted' }, `${t.suggestions}: ${out.suggestions.map((s) => `“${s.query}” (${s.totalMatches})`).join(', ')}`));
    }
    this.more.hidden = out.nextCursor === null;
    this.more.disabled = false;
    this.more.textContent = t.loadMoreHits;
    this.status.textContent = '';
    this.status.dataset.state = 'done';
  }

  private appendItems(items: readonly SearchItem[], offset: number): void {
    const t = this.t;
    items.forEach((item, i) => {
      const meta = [item.kind === 'rule' ? item.ruleId : `field ${item.fieldId ?? ''}`, item.section === null ? null : `[${item.section}]`, t.types[item.annotationType] ?? item.annotationType, item.effective ? null : item.state]
        .filter(Boolean)
        .join(' · ');
      const button = el(
        'button',
        { className: 'hit', attrs: { type: 'button', 'data-i': String(offset + i), 'data-document-id': item.documentId, 'aria-pressed': 'false' } },
        el('span', { className: 'hit-title' }, el('span', { className: `swatch t-${item.annotationType}` }), item.title || item.documentId, ' ', trustChip(t, item.trust)),
        el('span', { className: 'muted small' }, meta),
        item.summary ? el('span', { className: 'hit-summary' }, item.summary) : null,
      );
      this.list.append(el('li', {}, button));
    });
  }

  private async loadMore(): Promise<void> {
    const out = this.out;
    if (!out || out.nextCursor === null) return;
    this.more.disabled = true;
    this.more.textContent = this.t.loading;
    const { cursor: _previous, ...args } = this.args ?? {};
    const answer = await callTool<SearchOutput>(this.app, 'pvf_annotation_search', { ...args, cursor: out.nextCursor });
    if (!answer.ok || !isSearchOutput(answer.value)) {
      this.more.disabled = false;
      this.more.textContent = this.t.loadMoreHits;
      this.fail(answer.text);
      return;
    }
    this.appendItems(answer.value.items, this.items.length);
    this.items.push(...answer.value.items);
    this.out = { ...answer.value, items: this.items };
    this.render();
  }

  private async choose(index: number): Promise<void> {
    const out = this.out;
    const item = this.items[index];
    if (!out || !item) return;
    for (const button of this.list.querySelectorAll<HTMLButtonElement>('button[aria-pressed="true"]')) button.setAttribute('aria-pressed', 'false');
    this.list.querySelector<HTMLButtonElement>(`button[data-i="${index}"]`)?.setAttribute('aria-pressed', 'true');
    this.picked = index;
    const pick = ++this.pick;
    replaceChildren(this.detail, el('p', { className: 'muted' }, this.t.loadingDocument));
    const [got] = await Promise.all([
      callTool<GetOutput>(this.app, 'pvf_annotation_get', { documentId: item.documentId, rulesRevision: out.rulesRevision }),
      tellModel(
        this.app,
        `In the pvfdoc search view the user picked documentId ${item.documentId} ("${item.title}", ${item.kind} ${item.ruleId ?? item.fieldId ?? ''}${item.section === null ? '' : `, section [${item.section}]`}; rulesRevision ${out.rulesRevision}). Its whole definition: pvf_annotation_get with that documentId and rulesRevision.`,
        { tool: 'pvf_annotation_search', documentId: item.documentId, title: item.title, kind: item.kind, ruleId: item.ruleId, fieldId: item.fieldId, section: item.section, rulesRevision: out.rulesRevision },
      ),
    ]);
    if (pick !== this.pick || this.picked !== index) return;
    if (!got.ok || !got.value) {
      replaceChildren(this.detail, el('p', { className: 'error' }, `${this.t.failed}: ${got.text}`));
      return;
    }
    replaceChildren(this.detail, renderDocument(this.t, got.value));
  }
}

startView('search-view', (app, locale, root) => new SearchView(app, stringsFor(locale), root));
