/**
 * The site's search (browser entry, bundled by esbuild into _pvfdoc/search.js). It opens the light
 * search (fetch-bundle.ts: the bundle's index, values and relations, the search head; contents in
 * shards when a search reads them) with the server's reader and runs `searchDocuments`, the code behind
 * the MCP tool pvf_annotation_search, with the tool's own input schema: same documents, same order. The
 * query and filters live in the page URL (?q=&section=&path=&kind=&v=&status=&ext=&type=&trust=), so a
 * search is a link. Rule text is only ever set as text (textContent), never parsed as HTML.
 */
import { searchDocuments } from '../../../runtime/search/search-documents.js';
import { SearchInputSchema, type SearchItem, type SearchOutput } from '../../../runtime/search/search-schema.js';
import { ANNOTATION_TYPE_LABEL, KIND_LABEL, label, STATE_LABEL, TRUST_LABEL } from '../lib/labels.js';
import { paths } from '../lib/slug.js';
import { openLightSearch, type LightSearch } from './fetch-bundle.js';
import { SearchFilesError } from './search-files.js';

/** Items per page of results. */
const PAGE = 50;
/** URL parameters the search page understands, in the order they are written back. */
const PARAMS = ['q', 'path', 'pathKind', 'section', 'kind', 'type', 'trust', 'ext', 'v', 'status'] as const;
/** Where the filters fold into 筛选 (the page's style uses the same width). */
const NARROW = '(max-width: 40rem)';

/** The tool input of a set of URL parameters (unknown or empty ones left out); version "all" by default. */
export function searchInputOf(params: URLSearchParams): Record<string, unknown> {
  const value = (name: string) => params.get(name)?.trim() ?? '';
  const input: Record<string, unknown> = { pvfVersion: value('v') || 'all', limit: PAGE };
  if (value('q')) input.query = value('q');
  if (value('path')) input.filePath = value('path');
  if (value('pathKind') === 'directory') input.pathKind = 'directory';
  if (value('section')) input.section = value('section');
  if (value('kind')) input.kinds = [value('kind')];
  if (value('type')) input.annotationTypes = [value('type')];
  if (value('trust')) input.trust = [value('trust')];
  if (value('ext')) input.extensions = value('ext').split(/[\s,，]+/).filter(Boolean).map((e) => (e.startsWith('.') ? e : `.${e}`));
  if (value('status') === 'all') input.status = 'all';
  return input;
}

function hasCriteria(params: URLSearchParams): boolean {
  return ['q', 'path', 'section', 'kind', 'type', 'trust', 'ext'].some((name) => (params.get(name)?.trim() ?? '') !== '');
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string | null, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

function renderItem(item: SearchItem, base: string): HTMLLIElement {
  const li = el('li', 'result');
  li.dataset.documentId = item.documentId;
  const link = el('a', 'result-title', item.title.trim() !== '' ? item.title : (item.ruleId ?? item.fieldId ?? item.documentId));
  link.href = `${base}${paths.doc(item.documentId)}`;
  const badges = el('span', 'badges', el('span', 'badge', label(KIND_LABEL, item.kind)), el('span', 'badge', label(ANNOTATION_TYPE_LABEL, item.annotationType)));
  if (!item.effective) badges.append(el('span', 'badge badge-warn', label(STATE_LABEL, item.state)));
  if (item.trust !== null) badges.append(el('span', `badge badge-trust badge-trust-${item.trust}`, label(TRUST_LABEL, item.trust)));
  li.append(el('div', 'result-head', link, badges));
  const meta = el('div', 'result-meta', el('code', null, item.ruleId ?? item.fieldId ?? ''));
  if (item.section !== null) meta.append(' · ', el('code', null, `[${item.section}]`));
  meta.append(` · ${item.layer}`);
  li.append(meta);
  if (item.summary.trim() !== '') li.append(el('p', 'result-summary', item.summaryTruncated ? `${item.summary}…` : item.summary));
  if (item.matchedValues && item.matchedValues.length > 0) {
    li.append(el('p', 'result-values', `匹配的枚举值：${item.matchedValues.map((v) => `${v.key} = ${v.label}`).join('；')}`));
  }
  if (item.statusReason) li.append(el('p', 'result-reason', item.statusReason));
  return li;
}

function fillForm(form: HTMLFormElement, params: URLSearchParams): void {
  for (const name of PARAMS) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) {
      const value = params.get(name);
      if (value !== null) field.value = value;
    }
  }
}

function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  const data = new FormData(form);
  for (const name of PARAMS) {
    const value = data.get(name);
    if (typeof value === 'string' && value.trim() !== '' && !(name === 'v' && value === 'all') && !(name === 'status' && value === 'effective') && !(name === 'pathKind' && value === 'file')) {
      params.set(name, value.trim());
    }
  }
  return params;
}

/** How many filters (everything but the query) the parameters set. */
function filterCount(params: URLSearchParams): number {
  return PARAMS.filter((name) => name !== 'q' && params.has(name)).length;
}

/** Open on wide screens; on narrow ones folded until asked for, with the number of filters in use shown. */
function keepFilters(app: HTMLElement, form: HTMLFormElement): void {
  const details = app.querySelector('#search-filters');
  const count = app.querySelector('#search-filter-count');
  if (!(details instanceof HTMLDetailsElement)) return;
  const narrow = matchMedia(NARROW);
  const showCount = () => {
    const n = filterCount(formParams(form));
    if (count) count.textContent = n > 0 ? `（已设 ${n} 项）` : '';
  };
  // The page leaves it folded (its style shows it on wide screens until now).
  details.open = !narrow.matches;
  narrow.addEventListener('change', () => {
    details.open = !narrow.matches;
  });
  form.addEventListener('input', showCount);
  showCount();
}

async function main(app: HTMLElement): Promise<void> {
  const form = app.querySelector('form') as HTMLFormElement;
  const status = app.querySelector('#search-status') as HTMLElement;
  const list = app.querySelector('#search-results') as HTMLOListElement;
  const more = app.querySelector('#search-more') as HTMLButtonElement;
  const base = app.dataset.base ?? '/';
  const setStatus = (state: string, text: string) => {
    status.dataset.state = state;
    status.textContent = text;
  };
  const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

  let params = new URLSearchParams(location.search);
  fillForm(form, params);
  keepFilters(app, form);
  setStatus('loading', '正在载入规则索引…');
  let light: LightSearch;
  try {
    const started = performance.now();
    light = await openLightSearch({
      bundleUrl: new URL(app.dataset.bundle ?? '', location.href).href,
      searchUrl: new URL(app.dataset.search ?? '', location.href).href,
      manifestSha256: app.dataset.searchSha256 ?? '',
    });
    app.dataset.loadMs = String(Math.round(performance.now() - started));
  } catch (error) {
    setStatus('error', `规则索引载入失败：${failure(error)}`);
    return;
  }
  const { bundle } = light;

  let input: Record<string, unknown> = {};
  let next: string | null = null;
  let runs = 0;
  // The newest search; an older one that finishes later (its shards took longer) is dropped.
  let latest = 0;
  const finish = () => {
    const fetched = light.fetched();
    app.dataset.bytes = String(fetched.bytes);
    app.dataset.shards = `${fetched.shards}/${fetched.of}`;
    // Counts finished searches, so a script (or a test) can wait for the answer to a new query.
    app.dataset.runs = String(++runs);
  };
  const show = async (append: boolean) => {
    const ticket = ++latest;
    more.hidden = true;
    if (!append && !hasCriteria(params)) {
      list.replaceChildren();
      setStatus('idle', '输入关键词，或按段、文件路径、类型筛选。');
      app.dataset.total = '';
      finish();
      return;
    }
    let result: SearchOutput;
    const started = performance.now();
    setStatus('searching', '正在搜索…');
    try {
      const parsed = SearchInputSchema.parse(append && next !== null ? { ...input, cursor: next } : input);
      result = await light.run(() => searchDocuments(bundle, parsed));
    } catch (error) {
      if (ticket !== latest) return;
      if (!append) list.replaceChildren();
      if (error instanceof SearchFilesError) setStatus('error', `规则内容载入失败：${failure(error)}`);
      else {
        // A PvfdocError carries the fix in `hint` (checked by shape: site/ imports only runtime/bundle and runtime/search).
        const hint = error instanceof Error && 'hint' in error && typeof error.hint === 'string' ? ` ${error.hint}` : '';
        setStatus('error', `搜索条件有误：${failure(error)}${hint}`);
      }
      finish();
      return;
    }
    if (ticket !== latest) return;
    const ms = performance.now() - started;
    if (!append) list.replaceChildren();
    for (const item of result.items) list.append(renderItem(item, base));
    next = result.nextCursor;
    more.hidden = next === null;
    app.dataset.total = String(result.totalMatches);
    const shown = list.children.length;
    setStatus('done', result.totalMatches === 0 ? '没有找到匹配的规则。可以减少关键词或筛选条件。' : `共 ${result.totalMatches} 条结果，显示前 ${shown} 条（用时 ${ms.toFixed(1)} 毫秒，规则版本 ${result.rulesRevision}）。`);
    finish();
  };
  const runFromParams = () => {
    input = searchInputOf(params);
    next = null;
    void show(false);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = () => {
    params = formParams(form);
    const query = params.toString();
    history.replaceState(null, '', query === '' ? location.pathname : `${location.pathname}?${query}`);
    runFromParams();
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    update();
  });
  form.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(update, 200);
  });
  more.addEventListener('click', () => void show(true));
  runFromParams();
}

const app = document.getElementById('search-app');
if (app) void main(app);
