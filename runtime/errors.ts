/**
 * The one error class of pvfdoc. Every expected failure carries a stable code that MCP tools, the CLI
 * and tests branch on; `hint` says exactly what to do about it.
 */
export const ERROR_CODES = [
  /** `pvfVersion=current`, or explain/read, on a workspace with no archive open. */
  'NO_ARCHIVE',
  /** Unknown explicit `pvfVersion`; `data.supportedVersions` lists the known ones. */
  'INVALID_VERSION',
  /** A `rulesRevision` or cursor refers to a snapshot that is not active; `data.rulesRevision` is the active one. */
  'STALE_RULES',
  /** A cursor that was altered, belongs to another query, filter set or tool. */
  'INVALID_CURSOR',
  /** `expectedRevision` (or an explain cursor) is not the workspace's current revision; `data.revision`. */
  'STALE_WORKSPACE',
  /** Unknown `workspaceId`; `data.workspaceIds` lists the open ones. */
  'WORKSPACE_NOT_FOUND',
  /** `filePath` is not in the workspace. */
  'FILE_NOT_FOUND',
  /** Explain on a file that is not script text. */
  'NOT_A_SCRIPT',
  /** Unknown `documentId` in the active snapshot. */
  'DOCUMENT_NOT_FOUND',
  /** One item does not fit the response budget even alone. */
  'RESPONSE_TOO_LARGE',
  /** Well-typed but inconsistent arguments. */
  'INVALID_ARGUMENT',
  /** Rule layers that cannot be compiled; `data.problems` lists every problem. */
  'INVALID_RULES',
  /** A snapshot bundle that is missing, corrupt or of another schema version; `data.file` names the file. */
  'INVALID_BUNDLE',
  /** A file or folder that could not be read or written. */
  'IO_ERROR',
  /** A PVF archive that is damaged, truncated, of another family or not a PVF at all; `data.archive` names the file. */
  'INVALID_ARCHIVE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

interface PvfdocErrorOptions {
  hint?: string;
  data?: Record<string, unknown>;
  cause?: unknown;
}

export class PvfdocError extends Error {
  override readonly name = 'PvfdocError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: PvfdocErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.data = options.data;
  }
}

export function isPvfdocError(value: unknown): value is PvfdocError {
  return value instanceof PvfdocError;
}

/** One line for people: message, then the fix. */
export function formatError(error: PvfdocError): string {
  return error.hint ? `${error.message} ${error.hint}` : error.message;
}
