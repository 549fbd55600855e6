import { fileURLToPath } from 'node:url';

/** The small layer every export test uses (written for these tests; nothing copied). */
export const EXPORT_LAYER = fileURLToPath(new URL('../../fixtures/layers/export/', import.meta.url));

/**
 * Golden files of the export, one folder per format. They are vitest file snapshots: after a deliberate
 * change of the output, `npx vitest run test/build/export -u` rewrites them (review the diff).
 */
export const GOLDEN_EXPORT = fileURLToPath(new URL('../../golden/export/', import.meta.url));

export const SITE_URL = 'https://example.org/pvfdoc/';

/** Every key pvfUtility's comment DTO has (KamishiroRei/pvfUtility PvfCommentDto, ModelBase). */
export const PVFUTILITY_COMMENT_KEYS = new Set(['Id', 'PvfCommentType', 'FileType', 'Section', 'Title', 'Comment', 'OfficialDescription', 'Closing', 'Authors', 'Create', 'UpdateTime']);

/**
 * How lostluna1/pvf-parser-ts renders a description (src/scriptLang/tagRegistry.ts, hover provider):
 * true when the lines after the first would be shown as one code block, which makes links plain text.
 */
export function vscodeShowsRestAsCode(description: string): boolean {
  const rest = description
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+$/, ''))
    .slice(1);
  return rest.some((l) => /`.+`/.test(l) || /\.ani\b/i.test(l) || /^\s*\//.test(l));
}
