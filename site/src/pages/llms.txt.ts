/**
 * /llms.txt: the pages an agent would read, in the llms.txt convention (llmstxt.org: an H1 title, a
 * blockquote summary, then H2 sections of markdown link lists, "Optional" last). Built from the bundle
 * (site-data.ts): the entry pages, one line per file type, and the JSON schemas found under schemas/
 * (their route files, so a schema added there is listed without this file knowing it). Document pages
 * are left out: one per definition is far too many; every list page links them.
 */
/// <reference types="vite/client" />
import type { APIRoute } from 'astro';
import { bundleAssetDir } from '../lib/assets.js';
import { href } from '../lib/href.js';
import { siteModel } from '../lib/site-data.js';
import { paths } from '../lib/slug.js';

/**
 * The route files under schemas/ (imported only to ask a dynamic route for its paths). Only these: a
 * glob over every page would make this endpoint import them all, and the bundler would then name the
 * pages' shared chunks after it.
 */
const SCHEMA_MODULES = import.meta.glob<{ getStaticPaths?: () => unknown }>(['./schemas/**/*.ts', './schemas/**/*.js']);

/** The URL path (relative to the base) a static route file is served at, or null for a dynamic route. */
function routeOf(file: string): string | null {
  const route = file.replace(/^\.\//, '').replace(/\.(ts|js)$/, '');
  if (route.includes('[')) return null;
  // An endpoint keeps its own extension (llms.txt, diff.txt); a page is a folder (build.format "directory").
  if (/\.[a-z0-9]+$/i.test(route)) return route;
  const page = route === 'index' ? '' : route.replace(/\/index$/, '');
  return page === '' ? '' : `${page}/`;
}

/** The routes of the schema endpoints under schemas/, static and from getStaticPaths. */
async function schemaRoutes(): Promise<string[]> {
  const routes: string[] = [];
  for (const [file, load] of Object.entries(SCHEMA_MODULES)) {
    const route = routeOf(file);
    if (route !== null) {
      routes.push(route);
      continue;
    }
    const module = await load();
    const found = (await module.getStaticPaths?.()) as { params?: Record<string, string | undefined> }[] | undefined;
    const pattern = file.replace(/^\.\//, '').replace(/\.(ts|js)$/, '');
    for (const entry of found ?? []) {
      routes.push(pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) => entry.params?.[name] ?? ''));
    }
  }
  return routes.sort();
}

function link(text: string, path: string, note?: string): string {
  return `- [${text.replace(/[[\]]/g, '\\$&')}](${href(path)})${note ? `: ${note}` : ''}`;
}

export const GET: APIRoute = async () => {
  const model = await siteModel();
  const { bundle } = model;
  const { counts } = bundle.manifest;
  const schemas = await schemaRoutes();
  const types = model.types.filter((t) => t.extension !== null);
  const any = model.types.find((t) => t.extension === null);

  const lines: string[] = [
    '# PVF 标注规则参考 (pvfdoc)',
    '',
    `> Script.pvf（DNF）文件的标注规则参考：${counts.documents} 条定义（${counts.rules} 条规则、${counts.fields} 个共享字段、${counts.enumValues} 个枚举值），` +
      `${types.length} 种文件类型，客户端版本 ${bundle.manifest.pvfVersions.join('、')}；规则快照 ${bundle.rulesRevision}。` +
      ' Annotation rules for the files of a DNF Script.pvf archive: what each section and token means, by file type. The same snapshot that the pvfdoc MCP server serves (pvf_annotation_search, pvf_annotation_get).',
    '',
    '每条定义有自己的页面 `doc/<documentId>/`（搜索结果和文件类型页都链接到它）。搜索页在浏览器里运行与 MCP 工具 pvf_annotation_search 相同的代码，参数写在网址里。',
    'Every definition has a page at `doc/<documentId>/`, linked from the search results and the file-type pages. The search page runs the code of the MCP tool pvf_annotation_search in the browser; its query is in the URL.',
    '',
    '## 入口 Start here',
    '',
    link('概览 Overview', paths.overview(), 'snapshot revision, layers, client versions, and the version × file-type matrix of effective definitions'),
  ];
  lines.push(
    link('文件类型 File types', 'type/', 'every file type with its Chinese name and how many sections and definitions it has'),
    link('搜索 Search', paths.search(), 'search/?q=<words>&section=&path=&pathKind=directory&ext=.equ&kind=rule|field&type=&trust=&v=<version>&status=all; same ranking as pvf_annotation_search'),
    link('变更 Changes', paths.changes(), 'what changed since the previous snapshot'),
    link('变更（文本） Changes as text', 'changes/diff.txt', 'the same diff as `pvfdoc diff` prints it'),
    link('段 Sections', paths.sections(), 'every section name, linking its definitions by file type'),
    link('关联 Relations', paths.relations(), 'the .lst lists that reference values are looked up in'),
    link('共享字段 Shared fields', paths.fields(), 'fields and the rules that take their blocks from each'),
  );

  lines.push('', '## 文件类型 Pages per file type', '');
  for (const t of types) lines.push(link(t.extension ?? '', t.path, `${t.name !== '' ? `${t.name}，` : ''}${t.docs.length} 条定义 definitions`));
  if (any) lines.push(link('不限类型 Any file type', any.path, `${any.docs.length} 条定义，适用于路径模式允许的任何文件 definitions that name no extension`));

  if (schemas.length > 0) {
    lines.push('', '## JSON schemas', '');
    for (const route of schemas) lines.push(link(route.replace(/^schemas\//, ''), route));
  }

  const bundleDir = bundleAssetDir(bundle.rulesRevision);
  lines.push(
    '',
    '## Optional',
    '',
    link('manifest.json', `${bundleDir}manifest.json`, 'the snapshot bundle this site was built from; its files (documents.json, values.json, relations.json, …) lie next to it, each with its sha256 here'),
    '',
  );
  return new Response(lines.join('\n'), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
