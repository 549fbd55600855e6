/**
 * Errors of the archive reader. Every problem with an archive's content is an INVALID_ARCHIVE
 * PvfdocError whose message starts with the archive file name, then says what is wrong and where.
 */
import { PvfdocError } from '../errors.js';

const DEFAULT_HINT =
  'The archive is damaged, truncated or not a classic (pvfUtility) Script.pvf. Check the file given to --workspace; open it in pvfUtility and save it again, or use an intact copy.';

/** An INVALID_ARCHIVE error: "`archive`: `problem`". `data.archive` names the file. */
export function invalidArchive(archive: string, problem: string, data: Record<string, unknown> = {}, hint: string = DEFAULT_HINT): PvfdocError {
  return new PvfdocError('INVALID_ARCHIVE', `${archive}: ${problem}`, { hint, data: { archive, ...data } });
}

/** An INVALID_ARCHIVE error about one file inside the archive (`data.path`). */
export function invalidArchiveFile(archive: string, path: string, problem: string, data: Record<string, unknown> = {}): PvfdocError {
  return invalidArchive(archive, `${path}: ${problem}`, { path, ...data });
}

/** Hex form used in messages: 0x0000ABCD. */
export function hex32(value: number): string {
  return `0x${(value >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}
