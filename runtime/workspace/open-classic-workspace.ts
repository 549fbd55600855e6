/**
 * A classic (pvfUtility-format) Script.pvf as a read-only workspace (runtime/archive/README.md).
 *
 * Revision (decision). `view()` stats the archive path (size, mtime, ctime, inode, device: one call)
 * and, when it differs from the version opened, opens the file again and bumps the revision. While
 * nothing changes, `view()` returns the same view object. Each view reads through its own archive
 * version (own file handle, tree and caches), so its reads never mix two versions: a file replaced on
 * disk (new inode) keeps serving the old version through the old handle; a file rewritten in place
 * fails the per-file CRC check and throws STALE_WORKSPACE (bumping the revision at once when the view
 * was current). The version before the current one stays open for views still in use; older versions
 * are closed, and reads through their views throw STALE_WORKSPACE.
 *
 * Failure. An archive that cannot be opened (missing, unreadable, damaged, nkpi, not a PVF, unknown
 * encoding) gives a workspace with `archiveOpen: false` and the reason in `info().error`; `view()`
 * throws NO_ARCHIVE. Each `view()` looks at the file again and opens it once it changed.
 *
 * Limits. Files over MAX_ARCHIVE_READ_BYTES (32 MiB, as folder workspaces) are listed but not read
 * through a view (RESPONSE_TOO_LARGE).
 */
import { stat } from 'node:fs/promises';
import nodePath from 'node:path';
import { isPvfdocError, PvfdocError } from '../errors.js';
import { identityOf, sameIdentity, type FileIdentity } from '../archive/archive-source.js';
import { openClassicArchive, type ClassicArchive } from '../archive/classic-archive.js';
import { normalizeEncodingName } from '../archive/text-encoding.js';
import type { Workspace, WorkspaceEntry, WorkspaceInfo, WorkspaceText, WorkspaceView } from './workspace.js';

/** Files larger than this are listed but never read through a view (RESPONSE_TOO_LARGE). */
export const MAX_ARCHIVE_READ_BYTES = 32 * 1024 * 1024;

export interface ClassicWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** The Script.pvf file. */
  path: string;
  /** Client version of the archive ("" = unknown, the default). */
  pvfVersion?: string;
  /** Text encoding instead of detection (cp950, cp936, cp949, utf-8, ...). */
  encoding?: string;
}

export async function openClassicWorkspace(options: ClassicWorkspaceOptions): Promise<Workspace> {
  const workspace = new ClassicWorkspace(options);
  await workspace.refresh();
  return workspace;
}

class ClassicWorkspace implements Workspace {
  readonly workspaceId: string;
  private readonly name: string;
  private readonly path: string;
  private readonly pvfVersion: string;
  private readonly givenEncoding: string | undefined;
  /** The encoding shown while no archive is open (the given one, normalised). */
  private readonly reportedEncoding: string;

  private revision = 0;
  private current: ClassicArchive | null = null;
  /** Earlier versions kept open for views still in use (at most one). */
  private retired: ClassicArchive[] = [];
  private error: string | null = null;
  /** The file version whose open failed (not retried until the file changes). */
  private failedIdentity: FileIdentity | null = null;
  private attempted = false;
  private closed = false;
  /** A read found the file changed and already bumped the revision for the reopen to come. */
  private bumpedForReopen = false;
  private refreshing: Promise<void> | null = null;
  private currentView: ClassicView | null = null;

  constructor(options: ClassicWorkspaceOptions) {
    this.workspaceId = options.workspaceId;
    this.name = options.name;
    this.path = nodePath.resolve(options.path);
    this.pvfVersion = options.pvfVersion ?? '';
    this.givenEncoding = options.encoding;
    try {
      this.reportedEncoding = options.encoding === undefined ? '' : normalizeEncodingName(options.encoding);
    } catch {
      this.reportedEncoding = options.encoding ?? '';
    }
  }

  info(): WorkspaceInfo {
    const open = this.current !== null && !this.closed;
    const warnings = open ? this.warnings() : [];
    return {
      workspaceId: this.workspaceId,
      name: this.name,
      kind: 'pvf-classic',
      pvfVersion: this.pvfVersion,
      revision: this.revision,
      fileCount: open && this.current ? this.current.fileCount : 0,
      encoding: this.current?.encoding.encoding ?? this.reportedEncoding,
      archiveOpen: open,
      error: this.closed ? 'the workspace is closed' : open ? null : (this.error ?? 'the archive is not open'),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  /** Problems that do not stop reading (skipped names, duplicates, a doubtful encoding). */
  warnings(): string[] {
    return this.current?.warnings() ?? [];
  }

  async view(): Promise<WorkspaceView> {
    await this.refresh();
    const archive = this.current;
    if (this.closed || !archive) {
      throw new PvfdocError('NO_ARCHIVE', `workspace ${this.workspaceId} has no readable archive: ${this.closed ? 'it is closed' : (this.error ?? 'not open')}`, {
        hint: 'Check the Script.pvf given to --workspace (it must be a readable classic pvfUtility archive); the workspace opens by itself once the file is fixed.',
        data: { workspaceId: this.workspaceId, archive: this.path },
      });
    }
    if (!this.currentView || this.currentView.revision !== this.revision || this.currentView.archive !== archive) {
      this.currentView = new ClassicView(this, this.revision, archive);
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
    let identity: FileIdentity | null = null;
    try {
      identity = identityOf(await stat(this.path, { bigint: true }));
    } catch {
      identity = null;
    }
    if (this.attempted && !this.bumpedForReopen) {
      const opened = this.current?.identity ?? null;
      if (opened && identity && sameIdentity(opened, identity)) return;
      if (!this.current && this.failedIdentity && identity && sameIdentity(this.failedIdentity, identity)) return;
    }
    await this.reopen(identity);
  }

  private async reopen(identity: FileIdentity | null): Promise<void> {
    const wasOpen = this.current !== null;
    const first = !this.attempted;
    this.attempted = true;
    let next: ClassicArchive | null = null;
    let failure: string | null = null;
    try {
      next = await openClassicArchive(this.path, this.givenEncoding === undefined ? {} : { encoding: this.givenEncoding });
    } catch (error) {
      failure = isPvfdocError(error) ? error.message : `archive ${this.path} cannot be opened: ${(error as Error).message}`;
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
      this.failedIdentity = null;
      if (!this.bumpedForReopen) this.revision++;
    } else {
      this.current = null;
      this.error = failure;
      this.failedIdentity = identity;
      if ((first || wasOpen) && !this.bumpedForReopen) this.revision++;
    }
    this.bumpedForReopen = false;
    this.currentView = null;
  }

  private async retire(archive: ClassicArchive): Promise<void> {
    const older = this.retired;
    this.retired = [archive];
    for (const old of older) await old.close();
  }

  // --- Called by views ---

  /** The archive changed under a view: count the change now (once) and refuse the read. */
  stale(view: ClassicView, path: string): never {
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

class ClassicView implements WorkspaceView {
  constructor(
    private readonly workspace: ClassicWorkspace,
    readonly revision: number,
    readonly archive: ClassicArchive,
  ) {}

  resolveFile(path: string): string | null {
    return this.archive.resolve(path)?.path ?? null;
  }

  listDirectory(path: string): WorkspaceEntry[] {
    return this.archive.list(path).map((node) => ({
      name: node.name,
      path: node.path,
      kind: node.kind,
      size: node.kind === 'file' ? node.size : null,
    }));
  }

  readText(path: string): WorkspaceText {
    const node = this.archive.file(path);
    checkSize(node.path, node.size);
    const text = this.guard(node.path, () => this.archive.readText(node.path));
    return { path: text.path, text: text.text, textRevision: text.textRevision, isScript: text.isScript };
  }

  readBytes(path: string): Uint8Array {
    const node = this.archive.file(path);
    checkSize(node.path, node.size);
    return this.guard(node.path, () => this.archive.readFile(node.path));
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

function checkSize(path: string, size: number): void {
  if (size <= MAX_ARCHIVE_READ_BYTES) return;
  throw new PvfdocError('RESPONSE_TOO_LARGE', `${path} is ${size} bytes; files over ${MAX_ARCHIVE_READ_BYTES} bytes (32 MiB) are not read`, {
    hint: 'This file is too large to explain or read through pvfdoc; open it with another tool.',
    data: { path, size, limit: MAX_ARCHIVE_READ_BYTES },
  });
}
