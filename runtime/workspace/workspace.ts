/**
 * The workspace contract every kind implements (folder of script text now; classic and nkpi archives
 * later). Tools only talk to this interface, so a contract test suite can run the same checks against
 * every kind.
 */

export type WorkspaceKind = 'directory' | 'pvf-classic' | 'pvf-nkpi';

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
  /** Raw bytes of a file (for .str tables and binary checks). FILE_NOT_FOUND when absent. */
  readBytes(path: string): Uint8Array;
}

export interface WorkspaceInfo {
  workspaceId: string;
  name: string;
  kind: WorkspaceKind;
  /** The archive's client version ("" when unknown). */
  pvfVersion: string;
  revision: number;
  fileCount: number;
  /** Text encoding of scripts (e.g. "utf-8", "cp949"). */
  encoding: string;
  /** Whether content can be read (false when a folder or archive is missing or failed to open). */
  archiveOpen: boolean;
  /** Why the workspace cannot be read, when archiveOpen is false. */
  error: string | null;
  /**
   * Problems that do not stop reading (archives: tree entries not listed, repeated names, a doubtful
   * text encoding). Absent or empty when there are none; kinds without such problems leave it out.
   */
  warnings?: string[];
}

export interface Workspace {
  readonly workspaceId: string;
  info(): WorkspaceInfo;
  /** Brings the revision up to date (cheaply) and returns a consistent view. NO_ARCHIVE when not open. */
  view(): Promise<WorkspaceView>;
  close(): Promise<void>;
}
