/**
 * Addresses of the reference site's pages, shared by the site that writes them and the MCP server that
 * links to them (serve --site-url), so a link never points at a page that is named otherwise.
 */

/**
 * Stable, ASCII-only URL segments for names that come from rule text (section names, extensions,
 * relation names, document ids). Injective: a–z and 0–9 stay, a space becomes "-", and every other
 * character (upper-case letters too) becomes "_<hex code point>_", so two different names never share a
 * URL and the same name always gets the same one, whatever static host serves the site. Callers
 * lower-case names that compare case-insensitively (sections, extensions) first.
 */
export function slugOf(name: string): string {
  let out = '';
  for (const ch of name) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) out += ch;
    else if (ch === ' ') out += '-';
    else out += `_${(ch.codePointAt(0) as number).toString(16)}_`;
  }
  return out === '' ? '_' : out;
}

/** A document's page, relative to the site's base (no leading slash, trailing slash). */
export function documentPagePath(documentId: string): string {
  return `doc/${slugOf(documentId)}/`;
}

/** The absolute address of a document's page on a site whose base URL is `siteUrl`. */
export function documentPageUrl(siteUrl: string, documentId: string): string {
  return new URL(documentPagePath(documentId), siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).href;
}
