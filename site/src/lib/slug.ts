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

/** Section names are compared case-insensitively and trimmed (as search's section filter does). */
export function sectionKey(section: string): string {
  return section.trim().toLowerCase();
}

/** URL paths of the pages, relative to the site's base (no leading slash, trailing slash). */
export const paths = {
  overview: () => '',
  search: () => 'search/',
  doc: (documentId: string) => `doc/${slugOf(documentId)}/`,
  docValues: (documentId: string, page: number) => (page <= 1 ? `doc/${slugOf(documentId)}/` : `doc/${slugOf(documentId)}/values/${page}/`),
  type: (extension: string) => `type/${slugOf(extension.trim().toLowerCase().replace(/^\./, ''))}/`,
  anyType: () => 'type/_any/',
  section: (section: string) => `section/${slugOf(sectionKey(section))}/`,
  relations: () => 'relations/',
  relation: (name: string) => `relation/${slugOf(name)}/`,
  fields: () => 'fields/',
  changes: () => 'changes/',
};
