/** Offline snapshot diffs: compare two bundles, render the result, open the sides the CLI names. */
export { ALL_FILES, DEFAULT_ENUM_SAMPLE_SIZE, diffBundles, documentIdentity, fileTypeOf, PATH_RULES, type DiffOptions } from './diff-bundles.js';
export * from '../../runtime/diff/diff-schema.js';
export { openDiffSides, resolveSideDir, type OpenedSide, type SideName, type SideSpec } from './open-sides.js';
export { codeSpan, markdownText, renderDiffMarkdown } from './render-markdown.js';
export { renderDiffText, type TextOptions } from './render-text.js';
