/**
 * The one-line summary of a document (and, where it differs, of an annotation) on an explain page: enough
 * to tell fields apart when read in a list; the whole text is one fullText or pvf_annotation_get away.
 */
import { MAX_EXPLAIN_SUMMARY } from './explain-schema.js';

/** `text` on one line (whitespace runs, line ends included, become one space), cut with "…" at `max`. */
export function summarize(text: string, max = MAX_EXPLAIN_SUMMARY): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  let end = max - 1;
  // Never cut between the halves of a surrogate pair.
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}
