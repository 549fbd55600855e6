/**
 * The explain filters (protocol 实际文件解释): section, occurrence, tokenIndex and a line range. They
 * only select annotations; the path context is returned separately and is never filtered.
 *
 * - `section`: with or without one pair of brackets, compared trimmed and case-insensitively with the
 *   annotation's section as written; section-tag annotations of that section count. Only annotations
 *   directly in that section (not in sections nested inside it).
 * - `occurrence` (needs `section`): the 0-based occurrence among same-name sections. Without it every
 *   occurrence is kept.
 * - `tokenIndex` (needs `section` and `occurrence`): annotations on that direct token, or on a range of
 *   direct tokens that covers it. Section tags have no token index and drop out.
 * - `startLine`/`endLine` (1-based, inclusive, each optional): annotations whose lines intersect the
 *   range; an annotation ending at column 1 of a line does not reach into that line.
 */
import { PvfdocError } from '../errors.js';
import { foldSectionName } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';

export interface ExplainFilters {
  /** Folded section name, or null. */
  section: string | null;
  occurrence: number | null;
  tokenIndex: number | null;
  startLine: number | null;
  endLine: number | null;
}

interface ExplainFilterInput {
  section?: string | undefined;
  occurrence?: number | undefined;
  tokenIndex?: number | undefined;
  startLine?: number | undefined;
  endLine?: number | undefined;
}

/** The filterable part of an annotation. */
interface FilterableAnnotation {
  section: string | null;
  occurrence: number | null;
  tokenIndex: number | null;
  lastTokenIndex?: number | undefined;
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** Checks and normalises the filter arguments (INVALID_ARGUMENT for inconsistent ones). */
export function normalizeExplainFilters(input: ExplainFilterInput): ExplainFilters {
  const invalid = (message: string, hint: string) => new PvfdocError('INVALID_ARGUMENT', message, { hint });
  let section: string | null = null;
  if (input.section !== undefined) {
    section = normalizeSectionName(input.section);
    if (section === '') throw invalid(`section ${JSON.stringify(input.section)} names no section`, 'Pass a section name such as "name" or "[name]", or omit section.');
  }
  if (input.occurrence !== undefined && section === null) {
    throw invalid('occurrence needs section', 'Add section (the name of the repeated section) or drop occurrence.');
  }
  if (input.tokenIndex !== undefined && (section === null || input.occurrence === undefined)) {
    throw invalid('tokenIndex needs section and occurrence', 'Add section and occurrence (0 for the first section of that name), or drop tokenIndex.');
  }
  if (input.startLine !== undefined && input.endLine !== undefined && input.startLine > input.endLine) {
    throw invalid(`startLine ${input.startLine} is after endLine ${input.endLine}`, 'Pass startLine <= endLine (both 1-based, inclusive).');
  }
  return {
    section,
    occurrence: input.occurrence ?? null,
    tokenIndex: input.tokenIndex ?? null,
    startLine: input.startLine ?? null,
    endLine: input.endLine ?? null,
  };
}

/** A section name as the filter compares it: trimmed, one pair of brackets removed, folded. */
function normalizeSectionName(name: string): string {
  let text = trimSpace(name);
  if (text.startsWith('[') && text.endsWith(']') && text.length >= 2) text = trimSpace(text.slice(1, -1));
  return foldSectionName(text);
}

export function matchesExplainFilters(a: FilterableAnnotation, filters: ExplainFilters): boolean {
  if (filters.section !== null) {
    if (a.section === null || foldSectionName(trimSpace(a.section)) !== filters.section) return false;
    if (filters.occurrence !== null && a.occurrence !== filters.occurrence) return false;
    if (filters.tokenIndex !== null) {
      if (a.tokenIndex === null) return false;
      const last = a.lastTokenIndex ?? a.tokenIndex;
      if (filters.tokenIndex < a.tokenIndex || filters.tokenIndex > last) return false;
    }
  }
  if (filters.startLine !== null || filters.endLine !== null) {
    const first = a.start.line;
    // An exclusive end at column 1 stops at the end of the previous line.
    const last = a.end.line > a.start.line && a.end.column === 1 ? a.end.line - 1 : a.end.line;
    if (filters.startLine !== null && last < filters.startLine) return false;
    if (filters.endLine !== null && first > filters.endLine) return false;
  }
  return true;
}
