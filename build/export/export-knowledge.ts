/**
 * `pvfdoc export`: a snapshot's knowledge of section tags in the files two editors read, pvfUtility's
 * tag comments and the pvf-parser-ts VS Code extension's tag files (docs/editors.md). Pure: a bundle in,
 * file texts out; write-export.ts puts them on disk.
 */
import { z } from 'zod';
import { formatIssues } from '../../runtime/bundle/format-issues.js';
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import { PvfdocError } from '../../runtime/errors.js';
import type { ExportFile, SkippedExtension } from './format-output.js';
import { pvfUtilityFiles } from './pvfutility-format.js';
import { collectTagKnowledge, type KnowledgeSet } from './tag-knowledge.js';
import { vscodeScriptTagsFiles } from './vscode-scripttags-format.js';

export const EXPORT_FORMATS = ['pvfutility', 'vscode-scripttags'] as const;

export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.output<typeof ExportFormatSchema>;

export const ExportOptionsSchema = z.strictObject({
  format: ExportFormatSchema,
  /** Base URL of the reference site (`pvfdoc site`); each entry then links to its rules' pages. */
  siteUrl: z.string().nullable(),
  /** Only rules effective for this client version; null = every rule effective for some version. */
  pvfVersion: z.string().nullable(),
});
export type ExportOptions = z.output<typeof ExportOptionsSchema>;

export interface ExportResult {
  format: ExportFormat;
  rulesRevision: string;
  pvfVersion: string | null;
  files: ExportFile[];
  skipped: SkippedExtension[];
  leftOut: KnowledgeSet['leftOut'];
}

/**
 * The export's files. `base` holds the editor's own files by name ("equ.json" → text, from `--base`):
 * a file of the same name is merged (its other tags kept) instead of written from nothing.
 */
export function exportKnowledge(bundle: Bundle, options: ExportOptions, base: ReadonlyMap<string, string> = new Map()): ExportResult {
  const parsed = ExportOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new PvfdocError('INVALID_ARGUMENT', `export options are wrong: ${formatIssues(parsed.error.issues)}`, {
      hint: `Give format ${EXPORT_FORMATS.join(' or ')}, siteUrl and pvfVersion (a string or null).`,
    });
  }
  const { format, pvfVersion } = parsed.data;
  const siteUrl = parsed.data.siteUrl === null ? null : checkSiteUrl(parsed.data.siteUrl);
  if (pvfVersion !== null && !bundle.manifest.pvfVersions.includes(pvfVersion)) {
    throw new PvfdocError('INVALID_VERSION', `--pvf-version ${pvfVersion} is not a client version of this snapshot`, {
      hint: `Give one of ${bundle.manifest.pvfVersions.join(', ')}, or leave it out to export the rules of every version.`,
      data: { supportedVersions: bundle.manifest.pvfVersions },
    });
  }
  const knowledge = collectTagKnowledge(bundle, { siteUrl, pvfVersion });
  const output = format === 'pvfutility' ? pvfUtilityFiles(knowledge.extensions, base) : vscodeScriptTagsFiles(knowledge.extensions, base);
  return { format, rulesRevision: bundle.rulesRevision, pvfVersion, files: output.files, skipped: output.skipped, leftOut: knowledge.leftOut };
}

/** An absolute http(s) URL, with the trailing slash the page addresses are resolved against. */
export function checkSiteUrl(siteUrl: string): string {
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    throw new PvfdocError('INVALID_ARGUMENT', `--site-url "${siteUrl}" is not a URL`, {
      hint: 'Give the address the reference site is served at, e.g. --site-url https://example.org/pvfdoc/ (pvfdoc site builds it).',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PvfdocError('INVALID_ARGUMENT', `--site-url must be an http or https address, got ${url.protocol}`, {
      hint: 'Editors open the links in a browser; give the http(s) address the reference site is served at.',
    });
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** The format named on the command line, or what to give instead. */
export function parseExportFormat(value: string | undefined): ExportFormat {
  const parsed = ExportFormatSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new PvfdocError('INVALID_ARGUMENT', value === undefined ? 'export needs --format' : `unknown export format "${value}"`, {
    hint: `Give --format ${EXPORT_FORMATS.join(' or --format ')} (docs/editors.md says which editor reads which).`,
    data: { formats: [...EXPORT_FORMATS] },
  });
}
