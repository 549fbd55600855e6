import { documentPagePath, slugOf } from '../../../runtime/bundle/site-paths.js';

export { slugOf };

/** Section names are compared case-insensitively and trimmed (as search's section filter does). */
export function sectionKey(section: string): string {
  return section.trim().toLowerCase();
}

/** URL paths of the pages, relative to the site's base (no leading slash, trailing slash). */
export const paths = {
  overview: () => '',
  search: () => 'search/',
  doc: documentPagePath,
  docValues: (documentId: string, page: number) => (page <= 1 ? `doc/${slugOf(documentId)}/` : `doc/${slugOf(documentId)}/values/${page}/`),
  types: () => 'type/',
  type: (extension: string) => `type/${slugOf(extension.trim().toLowerCase().replace(/^\./, ''))}/`,
  anyType: () => 'type/_any/',
  sections: () => 'sections/',
  section: (section: string) => `section/${slugOf(sectionKey(section))}/`,
  relations: () => 'relations/',
  relation: (name: string) => `relation/${slugOf(name)}/`,
  fields: () => 'fields/',
  changes: () => 'changes/',
};
