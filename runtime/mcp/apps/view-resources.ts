/**
 * MCP Apps views (the ext-apps extension, spec 2026-01-26): `ui://` HTML resources that hosts with
 * Apps support (Claude, VS Code, Goose, ChatGPT, …) show in place of a tool's text result. A tool names
 * its view in `_meta.ui.resourceUri`; hosts without Apps support ignore the key and show the text as
 * before. The tools' results are the same either way.
 *
 * Each view is one self-contained HTML document (inline script and style, built by
 * scripts/build-mcp-app-views.mjs) that loads nothing: its CSP metadata asks the host for no network
 * origins at all, and the document carries the same policy itself.
 */
import { registerAppResource, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { builtViewHtml } from './built-views.js';

export const EXPLAIN_VIEW_URI = 'ui://pvfdoc/explain-view.html';
export const SEARCH_VIEW_URI = 'ui://pvfdoc/search-view.html';
export { RESOURCE_MIME_TYPE as VIEW_MIME_TYPE };

interface ViewResource {
  name: string;
  uri: string;
  /** File name in dist/mcp-apps/ (scripts/build-mcp-app-views.mjs). */
  file: string;
  title: string;
  description: string;
}

const VIEWS: readonly ViewResource[] = [
  {
    name: 'pvfdoc-explain-view',
    uri: EXPLAIN_VIEW_URI,
    file: 'explain-view.html',
    title: 'Explain view: the file with its annotations',
    description: 'Interactive view of a pvf_annotation_explain result: the file\'s lines with annotated tokens marked by type; picking one shows its document (pvf_annotation_get).',
  },
  {
    name: 'pvfdoc-search-view',
    uri: SEARCH_VIEW_URI,
    file: 'search-view.html',
    title: 'Search view: pick a document',
    description: 'Interactive view of a pvf_annotation_search result: the hits as a list; picking one shows the whole document (pvf_annotation_get) and tells the model which one the user chose.',
  },
];

/** No origins for anything: the views fetch, embed and connect to nothing. */
const VIEW_UI_META = { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true };

/**
 * `_meta` of a tool whose results a view shows: the spec's `ui.resourceUri`, and the flat
 * `ui/resourceUri` key earlier hosts read (what the package's registerAppTool adds too).
 */
export function viewToolMeta(uri: string): Record<string, unknown> {
  return { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri };
}

export function registerViewResources(server: McpServer): void {
  for (const view of VIEWS) {
    registerAppResource(server, view.name, view.uri, { title: view.title, description: view.description, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: VIEW_UI_META } }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: builtViewHtml(view.file), _meta: { ui: VIEW_UI_META } }],
    }));
  }
}
