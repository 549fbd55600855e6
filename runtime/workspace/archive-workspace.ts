/**
 * A Script.pvf file as a read-only workspace, whatever its format: the lifecycle is written once here
 * and a driver (archive-drivers.ts) adapts one archive reader to it.
 *
 * Revision (decision). `view()` stats the archive path (size, mtime, ctime, inode, device: one call)
 * and, when it differs from the version opened, opens the file again and bumps the revision. The stat
 * is synchronous: every request takes a view, and an asynchronous stat costs a thread-pool round trip
 * (tens of µs under load) where `statSync` costs a couple, about what one of the reader's synchronous
 * positioned reads blocks for. Reads through a view never stat (only a CRC or read failure asks the
 * handle whether the file changed), so a change is seen by the next `view()`, as before. While
 * nothing changes, `view()` returns the same view object. Each view reads through its own archive
 * version (own file handle, index and caches), so its reads never mix two versions: a file replaced on
 * disk (new inode) keeps serving the old version through the old handle; a file rewritten in place is
 * seen by the reader (CRC, inflate or handle check) and throws STALE_WORKSPACE, bumping the revision at
 * once when the view was current. The version before the current one stays open for views still in
 * use; older versions are closed, and reads through their views throw STALE_WORKSPACE.
 *
 * Failure. An archive that cannot be opened (missing, unreadable, damaged, another format, not a PVF)
 * gives a workspace with `archiveOpen: false` and the reason in `info().error`; `view()` throws
 * NO_ARCHIVE. Each `view()` looks at the file again and opens it once it changed.
 *
 * Limits. Files over MAX_FILE_READ_BYTES (32 MiB, as folder workspaces) are listed but not read
 * through a view (RESPONSE_TOO_LARGE).
 */
import { statSync } from 'node:fs';
import nodePath from 'node:path';
import { isPvfdocError, PvfdocError } from '../errors.js';
import { identityOf, sameIdentity, type FileIdentity } from '../script/archive-source.js';
import { checkReadSize, type Workspace, type WorkspaceEntry, type WorkspaceInfo, type WorkspaceKind, type WorkspaceText, type WorkspaceView } from './workspace.js';

/** One version of an archive file as a driver opened it. */
export interface OpenedArchive {
  /** The file version opened (null for archives held in memory). */
  readonly identity: FileIdentity | null;
  readonly fileCount: number;
  /** Text encoding of its scripts. */
  readonly encoding: string;
  /** The client version the container reveals ("" when its format reveals none). */
  readonly clientVersion: string;
  /** Problems that do not stop reading (names left out or repeated, a doubtful encoding, dropped tokens). */
  warnings(): string[];
  resolve(path: string): string | null;
  list(path: string): WorkspaceEntry[];
  /** The stored path and size of a file; FILE_NOT_FOUND when there is none. */
  file(path: string): { path: string; size: number };
  readText(path: string): WorkspaceText;
  readBytes(path: string): Uint8Array;
  close(): Promise<void>;
}

/** What a file that failed to open was found to be, when the driver can tell. */
interface OpenFailure {
  reason: string;
  /** The client version its container reveals, "" when unknown. */
  clientVersion: string;
}

export interface ArchiveDriver<Options> {
  readonly kind: Exclude<WorkspaceKind, 'directory'>;
  /** The NO_ARCHIVE hint: what a readable file of this format is. */
  readonly expects: string;
  /** The encoding reported while no version is open. */
  encodingWhenClosed(options: Options): string;
  open(path: string, options: Options): Promise<OpenedArchive>;
  /** A better reason for a failed open, found by looking at the file (optional). */
  explainFailure?(path: string, error: unknown): Promise<OpenFailure | null>;
}

interface ArchiveWorkspaceOptions<Options> {
  workspaceId: string;
  name: string;
  /** The Script.pvf file. */
  path: string;
  /** Client version to report instead of the one the container reveals ("" or absent = that one). */
  pvfVersion?: string;
  /** The reader's own options (encoding, limits, keys). */
  reader: Options;
}

export async function createArchiveWorkspace<Options>(driver: ArchiveDriver<Options>, options: ArchiveWorkspaceOptions<Options>): Promise<Workspace> {
  const workspace = new ArchiveWorkspace(driver, options);
  await workspace.refresh();
  return workspace;
}

class ArchiveWorkspace<Options> implements Workspace {
  readonly workspaceId: string;
  private readonly name: string;
  private readonly path: string;
  private readonly givenVersion: string | undefined;

  private revision = 0;
  private current: OpenedArchive | null = null;
  /** Earlier versions kept open for views still in use (at most one). */
  private retired: OpenedArchive[] = [];
  private error: string | null = null;
  /** What the file was found to be when it last failed to open. */
  private failure: OpenFailure | null = null;
  /** The file version whose open failed (not retried until the file changes). */
  private failedIdentity: FileIdentity | null = null;
  private attempted = false;
  private closed = false;
  /** A read found the file changed and already bumped the revision for the reopen to come. */
  private bumpedForReopen = false;
  private refreshing: Promise<void> | null = null;
  private currentView: ArchiveView | null = null;

  constructor(
    private readonly driver: ArchiveDriver<Options>,
    private readonly options: ArchiveWorkspaceOptions<Options>,
  ) {
    this.workspaceId = options.workspaceId;
    this.name = options.name;
    this.path = nodePath.resolve(options.path);
    this.givenVersion = options.pvfVersion;
  }

  info(): WorkspaceInfo {
    const open = this.current !== null && !this.closed;
    const warnings = open && this.current ? this.current.warnings() : [];
    return {
      workspaceId: this.workspaceId,
      name: this.name,
      kind: this.driver.kind,
      pvfVersion: this.givenVersion ?? this.current?.clientVersion ?? this.failure?.clientVersion ?? '',
      revision: this.revision,
      fileCount: open && this.current ? this.current.fileCount : 0,
      encoding: this.current?.encoding ?? this.driver.encodingWhenClosed(this.options.reader),
      archiveOpen: open,
      error: this.closed ? 'the workspace is closed' : open ? null : (this.error ?? 'the archive is not open'),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  async view(): Promise<WorkspaceView> {
    // The common case answers without waiting on a promise: no reopen under way and the file on disk
    // is the version open (one synchronous stat).
    if (this.closed || this.refreshing || !this.unchangedOnDisk(this.identityOnDisk())) await this.refresh();
    const archive = this.current;
    if (this.closed || !archive) {
      throw new PvfdocError('NO_ARCHIVE', `workspace ${this.workspaceId} has no readable archive: ${this.closed ? 'it is closed' : (this.error ?? 'not open')}`, {
        hint: `Check the Script.pvf given to --workspace (it must be ${this.driver.expects}); the workspace opens by itself once the file is fixed.`,
        data: { workspaceId: this.workspaceId, archive: this.path },
      });
    }
    if (!this.currentView || this.currentView.revision !== this.revision || this.currentView.archive !== archive) {
      this.currentView = new ArchiveView(this, this.revision, archive);
    }
    return this.currentView;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.currentView = null;
    const archives = [this.current, ...this.retired];
    this.current = null;
    this.retired = [];
    for (const archive of archives) await archive?.close();
  }

  /** Opens the archive again when the file on disk is not the version open (cheap: one stat). */
  async refresh(): Promise<void> {
    if (this.closed) return;
    if (this.refreshing) return this.refreshing;
    this.refreshing = this.check().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async check(): Promise<void> {
    const identity = this.identityOnDisk();
    if (this.unchangedOnDisk(identity)) return;
    await this.reopen(identity);
  }

  /** What the path is on disk now (null: gone or unreadable). */
  private identityOnDisk(): FileIdentity | null {
    try {
      const st = statSync(this.path, { bigint: true, throwIfNoEntry: false });
      return st ? identityOf(st) : null;
    } catch {
      return null;
    }
  }

  /** Whether nothing is to be done for the file found on disk: the version open, or the one that failed to open. */
  private unchangedOnDisk(identity: FileIdentity | null): boolean {
    if (!this.attempted || this.bumpedForReopen || !identity) return false;
    const opened = this.current?.identity ?? null;
    if (opened) return sameIdentity(opened, identity);
    return !this.current && this.failedIdentity !== null && sameIdentity(this.failedIdentity, identity);
  }

  private async reopen(identity: FileIdentity | null): Promise<void> {
    const wasOpen = this.current !== null;
    const first = !this.attempted;
    this.attempted = true;
    let next: OpenedArchive | null = null;
    let failure: OpenFailure | null = null;
    try {
      next = await this.driver.open(this.path, this.options.reader);
    } catch (error) {
      const reason = isPvfdocError(error) ? error.message : `archive ${this.path} cannot be opened: ${(error as Error).message}`;
      failure = (await this.driver.explainFailure?.(this.path, error)) ?? { reason, clientVersion: '' };
    }
    if (this.closed) {
      await next?.close();
      return;
    }
    const previous = this.current;
    if (previous) await this.retire(previous);
    if (next) {
      this.current = next;
      this.error = null;
      this.failure = null;
      this.failedIdentity = null;
      if (!this.bumpedForReopen) this.revision++;
    } else {
      this.current = null;
      this.error = failure?.reason ?? null;
      this.failure = failure;
      this.failedIdentity = identity;
      if ((first || wasOpen) && !this.bumpedForReopen) this.revision++;
    }
    this.bumpedForReopen = false;
    this.currentView = null;
  }

  private async retire(archive: OpenedArchive): Promise<void> {
    const older = this.retired;
    this.retired = [archive];
    for (const old of older) await old.close();
  }

  /** The archive changed under a view: count the change now (once) and refuse the read. */
  stale(view: ArchiveView, path: string): never {
    if (!this.closed && view.revision === this.revision && view.archive === this.current) {
      this.revision++;
      this.bumpedForReopen = true;
    }
    throw new PvfdocError('STALE_WORKSPACE', `${this.path} changed on disk after revision ${view.revision} was read; the workspace is now at revision ${this.revision} (reading ${path})`, {
      hint: 'Call workspace_info to get the current revision, then repeat the request with it and without a cursor.',
      data: { revision: this.revision, path },
    });
  }
}

/** The part of the workspace a view calls back. */
interface StaleReporter {
  stale(view: ArchiveView, path: string): never;
}

class ArchiveView implements WorkspaceView {
  constructor(
    private readonly workspace: StaleReporter,
    readonly revision: number,
    readonly archive: OpenedArchive,
  ) {}

  resolveFile(path: string): string | null {
    return this.archive.resolve(path);
  }

  listDirectory(path: string): WorkspaceEntry[] {
    return this.archive.list(path);
  }

  readText(path: string): WorkspaceText {
    const file = this.archive.file(path);
    checkReadSize(file.path, file.size);
    return this.guard(file.path, () => this.archive.readText(file.path));
  }

  readBytes(path: string): Uint8Array {
    const file = this.archive.file(path);
    checkReadSize(file.path, file.size);
    return this.guard(file.path, () => this.archive.readBytes(file.path));
  }

  private guard<T>(path: string, read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (isPvfdocError(error) && error.code === 'STALE_WORKSPACE') this.workspace.stale(this, path);
      throw error;
    }
  }
}
