/**
 * Links from tool results to the reference site (issue 14): each document a result returns gets its
 * page's `url` in the structured output and a `resource_link` content item, so a client can open it.
 * Without a known site, results carry no links.
 */
import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { documentPageUrl } from '../bundle/site-paths.js';

export interface LinkedDocument {
  documentId: string;
  title: string;
  description?: string;
}

/** One resource_link per document, in the order given, each document once. */
export function documentLinks(siteUrl: string, documents: readonly LinkedDocument[]): ResourceLink[] {
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const doc of documents) {
    if (seen.has(doc.documentId)) continue;
    seen.add(doc.documentId);
    links.push({
      type: 'resource_link',
      uri: documentPageUrl(siteUrl, doc.documentId),
      name: doc.documentId,
      title: doc.title === '' ? doc.documentId : doc.title,
      mimeType: 'text/html',
      ...(doc.description !== undefined && doc.description !== '' ? { description: doc.description } : {}),
    });
  }
  return links;
}

/** The result with the links appended after its text. */
export function withLinks(result: CallToolResult, links: readonly ResourceLink[]): CallToolResult {
  return links.length === 0 ? result : { ...result, content: [...result.content, ...links] };
}

/**
 * The base URL `--site-url` names, with a trailing slash; null when it is not an http(s) URL (the
 * caller reports it).
 */
export function normalizeSiteUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.search = '';
  url.hash = '';
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
