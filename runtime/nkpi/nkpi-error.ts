/**
 * Errors of the nkpi reader: every problem with an archive's content is an INVALID_ARCHIVE PvfdocError
 * whose message starts with the archive file, then says what is wrong and where (the classic reader's
 * convention, runtime/script/archive-error.ts), with an nkpi-specific hint.
 */
import { invalidArchive } from '../script/archive-error.js';
import type { PvfdocError } from '../errors.js';

export const NKPI_HINT =
  'The nkpi archive is damaged, truncated or encrypted with keys pvfdoc does not know (it reads the standard 90US and alternate 90CN keys). Check the file given to --workspace, or use an intact copy (pvfine opens and saves nkpi archives).';

/** INVALID_ARCHIVE "`archive`: `problem`" with the nkpi hint; `data.archive` names the file. */
export function nkpiError(archive: string, problem: string, data: Record<string, unknown> = {}, hint: string = NKPI_HINT): PvfdocError {
  return invalidArchive(archive, problem, { family: 'nkpi', ...data }, hint);
}

/** INVALID_ARCHIVE about one file inside the archive (`data.path`). */
export function nkpiFileError(archive: string, path: string, problem: string, data: Record<string, unknown> = {}): PvfdocError {
  return nkpiError(archive, `${path}: ${problem}`, { path, ...data });
}

/** Bytes as a human size ("1.5 MiB", "512 bytes"). */
export function bytesText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}
