/** What a format writer returns, and the one way a `--base` file is read. */
import type { z } from 'zod';
import { formatIssues } from '../../runtime/bundle/format-issues.js';
import { PvfdocError } from '../../runtime/errors.js';

export interface ExportFile {
  /** Path relative to the output folder ("equ.json"). */
  path: string;
  ext: string;
  /** Tags pvfdoc wrote into the file. */
  tags: number;
  /** Entries of the `--base` file kept as they were (tags pvfdoc has nothing on). */
  kept: number;
  text: string;
}

export interface SkippedExtension {
  ext: string;
  tags: number;
  reason: string;
}

export interface FormatOutput {
  files: ExportFile[];
  skipped: SkippedExtension[];
}

/** A file of the `--base` folder, parsed against the format it must have. */
export function parseBaseFile<S extends z.ZodType>(path: string, text: string, schema: S, what: string): z.output<S> {
  let json: unknown;
  try {
    // Editors on Windows may save with a byte order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (cause) {
    throw new PvfdocError('INVALID_ARGUMENT', `--base file ${path} is not JSON: ${(cause as Error).message}`, {
      hint: `Give as --base the folder holding the editor's own files (${what}), or leave --base out.`,
      data: { file: path },
      cause,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new PvfdocError('INVALID_ARGUMENT', `--base file ${path} is not ${what}: ${formatIssues(parsed.error.issues)}`, {
      hint: 'Check that --base names the folder of the format given with --format, or leave --base out.',
      data: { file: path },
    });
  }
  return parsed.data as z.output<S>;
}
