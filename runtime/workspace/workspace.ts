/**
 * The workspace contract every kind implements (folder of script text now; classic and nkpi archives
 * later). Tools only talk to this interface, so a contract test suite can run the same checks against
 * every kind.
 */
import { z } from 'zod';
import { PvfdocError } from '../errors.js';

const WorkspaceKindSchema = z.enum(['directory', 'pvf-classic', 'pvf-nkpi']);
export type WorkspaceKind = z.infer<typeof WorkspaceKindSchema>;

/** What workspace_info reports of one workspace (also its wire shape). */
export const WorkspaceInfoSchema = z.strictObject({
  workspaceId: z.string().describe('the workspaceId argument of every other tool'),
  name: z.string(),
  kind: WorkspaceKindSchema.describe('directory = a folder of decompiled script text'),
  pvfVersion: z.string().describe('client version of the workspace ("" = unknown: only version-independent rules apply)'),
  revision: z.int().describe('content revision; expectedRevision of pvf_annotation_explain. Increases when files change'),
  fileCount: z.int(),
  encoding: z
    .string()
    .describe('text encoding of the script files: "utf-8" for folders; for a Script.pvf the one detected (cp950, cp936, cp949 or utf-8) or given with --encoding'),
  archiveOpen: z.boolean().describe('false: nothing can be read from this workspace (see error)'),
  error: z.string().nullable().describe('why the workspace cannot be read; null when archiveOpen'),
  warnings: z
    .array(z.string())
    .optional()
    .describe('problems that do not stop reading (Script.pvf: tree entries not listed, repeated names, a doubtful encoding); absent when none'),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfoSchema>;

/** Files larger than this are listed but never read, whatever holds them (RESPONSE_TOO_LARGE). */
export const MAX_FILE_READ_BYTES = 32 * 1024 * 1024;

/** Refuses a read of a file over MAX_FILE_READ_BYTES, before any byte of it is read. */
export function checkReadSize(path: string, size: number): void {
  if (size <= MAX_FILE_READ_BYTES) return;
  throw new PvfdocError('RESPONSE_TOO_LARGE', `${path} is ${size} bytes; files over ${MAX_FILE_READ_BYTES} bytes (32 MiB) are not read`, {
    hint: 'This file is too large to explain or read through pvfdoc; open it with another tool.',
    data: { path, size, limit: MAX_FILE_READ_BYTES },
  });
}


export interface WorkspaceEntry {
  /** Last path segment as stored (original case). */
  name: string;
  /** Archive-internal path with `/`, no leading slash, original case. */
  path: string;
  kind: 'file' | 'directory';
  /** Bytes for files; null for directories. */
  size: number | null;
}

export interface WorkspaceText {
  /** Canonical archive path of the file (original case). */
  path: string;
  /** Canonical text: UTF-8 semantics, `\n` line ends. Explain ranges refer to exactly this text. */
  text: string;
  /** Hash of `text`; changes only when the canonical text changes. */
  textRevision: string;
  /** Whether the file is token-script text that explain can parse (not `.str`, `.bin`, images...). */
  isScript: boolean;
}

/**
 * One consistent view of a workspace at one revision. Every read through a view either reflects that
 * revision or fails with STALE_WORKSPACE; it never mixes two states.
 */
export interface WorkspaceView {
  readonly revision: number;
  /** Resolves a path case-insensitively to the stored path, or null. Rejects `..` and absolute paths with INVALID_ARGUMENT. */
  resolveFile(path: string): string | null;
  /** Directory listing (one level), directories first, then by name. FILE_NOT_FOUND for an unknown folder. */
  listDirectory(path: string): WorkspaceEntry[];
  /** Canonical text of a file. FILE_NOT_FOUND when absent; NOT_A_SCRIPT is the caller's decision via isScript. */
  readText(path: string): WorkspaceText;
  /**
   * The same as readText, giving the caller a chance to yield while a large file is decoded (each step
   * a few milliseconds). Readers whose reads have no long part leave it out.
   */
  readTextSteps?(path: string): Generator<void, WorkspaceText>;
  /** Raw bytes of a file (for .str tables and binary checks). FILE_NOT_FOUND when absent. */
  readBytes(path: string): Uint8Array;
}

export interface Workspace {
  readonly workspaceId: string;
  info(): WorkspaceInfo;
  /** Brings the revision up to date (cheaply) and returns a consistent view. NO_ARCHIVE when not open. */
  view(): Promise<WorkspaceView>;
  close(): Promise<void>;
}
