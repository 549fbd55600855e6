/**
 * What a caller should do about each error code a tool can return. One text per code feeds the tool
 * descriptions and the skill resource, so the two cannot disagree.
 */
import type { ErrorCode } from '../errors.js';
import { SKILL_URI } from './constants.js';

export const ERROR_GUIDE = {
  WORKSPACE_NOT_FOUND: 'unknown workspaceId: call workspace_info and use one of its workspaceIds (data.workspaceIds lists them).',
  NO_ARCHIVE:
    'the workspace has nothing open (workspace_info shows archiveOpen=false and why), or pvfVersion "current" was used without a workspaceId: search with an explicit pvfVersion (one of supportedVersions) or "all"; its files cannot be read until its folder exists (it then opens by itself).',
  INVALID_VERSION: 'unknown pvfVersion: use one of data.supportedVersions (also in workspace_info), "current" or "all".',
  STALE_RULES:
    'the rules snapshot changed (data.rulesRevision is the active one): search again without a cursor and use the new documentIds; never mix results of two rulesRevisions.',
  STALE_WORKSPACE:
    'the workspace content changed (data.revision is its current revision): repeat the request without a cursor; for pvf_annotation_explain pass expectedRevision = data.revision (also in workspace_info).',
  INVALID_CURSOR: 'the cursor was altered or belongs to other arguments or another tool: repeat the request without a cursor, and pass nextCursor unchanged with exactly the same arguments.',
  FILE_NOT_FOUND: 'no such file or folder in the workspace: take paths from list_files (archive-internal, "/" separated, no leading "/").',
  NOT_A_SCRIPT: 'the file is not script text (e.g. a string table, image or binary): explain only token scripts; use read_file to look at text files.',
  DOCUMENT_NOT_FOUND: 'no such documentId in the active snapshot: take documentIds from pvf_annotation_search of the same rulesRevision; they are not permanent.',
  RESPONSE_TOO_LARGE:
    'one item does not fit the response size limit even alone, or the file is over the 32 MiB read limit: narrow the request (smaller line range, a section filter, pvf_annotation_get for a single document) instead of retrying unchanged.',
  IO_ERROR: 'the server could not read the file from disk (permissions, disk error): not fixable by changing the arguments; tell the user.',
  INVALID_ARCHIVE: 'the archive entry is damaged or cannot be decoded (data.archive, data.path): not fixable by changing the arguments; tell the user; other files may still be readable.',
  INVALID_ARGUMENT: 'arguments are well-typed but inconsistent (the message names the conflict): fix them as the hint says.',
} as const satisfies Partial<Record<ErrorCode, string>>;

type ToolErrorCode = keyof typeof ERROR_GUIDE;

/**
 * The "Errors:" paragraph of a tool description: the codes only. What to do about each is in the
 * skill resource (one copy, read when needed) instead of in every tool definition an agent loads.
 */
export function describeErrors(codes: readonly ToolErrorCode[]): string {
  if (codes.length === 0) return 'Errors: none expected.';
  return `Errors (isError, text "CODE: message", _meta["pvfdoc/error"]): ${codes.join(', ')}. What to do for each: resource ${SKILL_URI}.`;
}
