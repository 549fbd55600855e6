/**
 * An nkpi-family Script.pvf (pvfine 90US / 90CN) as a read-only workspace (runtime/nkpi/README.md).
 * Same lifecycle as the classic archive workspace (open-classic-workspace.ts):
 *
 * Revision. `view()` stats the archive path (size, mtime, ctime, inode, device) and, when it differs
 * from the version opened, opens the file again and bumps the revision. While nothing changes, `view()`
 * returns the same view object. Each view reads through its own archive version (own file handle,
 * index and caches): a file replaced on disk keeps serving the old version through the old handle; a
 * file rewritten in place fails to inflate or is seen changed by its handle and throws STALE_WORKSPACE
 * (bumping the revision at once when the view was current). The version before the current one stays
 * open for views still in use; older ones are closed, and reads through their views throw
 * STALE_WORKSPACE.
 *
 * Version. `info().pvfVersion` is the given version, else the client version the container reveals
 * (standard keys → 90US, alternate → 90CN), also while a recognised archive cannot be read (a paged 110
 * archive without key files → 110US, `archiveOpen: false`). `container()` adds the variant.
 *
 * Failure. An archive that cannot be opened (missing, damaged, classic, paged 110 without keys, not a
 * PVF) gives a workspace with `archiveOpen: false` and the reason in `info().error`; `view()` throws
 * NO_ARCHIVE. Each `view()` looks at the file again and opens it once it changed.
 *
 * Limits. Files over MAX_ARCHIVE_READ_BYTES (32 MiB, as folder workspaces) are listed but not read
 * through a view (RESPONSE_TOO_LARGE).
 */
import { stat } from 'node:fs/promises';
import nodePath from 'node:path';
import { identityOf, sameIdentity, type FileIdentity } from '../archive/archive-source.js';
import { isPvfdocError, PvfdocError } from '../errors.js';
import { detectPvfContainer, type PvfContainer } from '../nkpi/detect.js';
import { openNkpiArchive, type NkpiArchive, type OpenNkpiArchiveOptions } from '../nkpi/nkpi-archive.js';
import type { Workspace, WorkspaceEntry, WorkspaceInfo, WorkspaceText, WorkspaceView } from './workspace.js';

/** Files larger than this are listed but never read through a view (RESPONSE_TOO_LARGE). */
export const MAX_NKPI_READ_BYTES = 32 * 1024 * 1024;

/** Script strings are UTF-8 (sTrA) or UTF-16 (sTrW); text files are UTF-16LE. */
export const NKPI_ENCODING = 'utf-8';

export interface NkpiWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** The Script.pvf file. */
  path: string;
  /** Client version to report instead of the detected one. */
  pvfVersion?: string;
  /** Reader limits and layout rules (runtime/nkpi/nkpi-archive.ts). */
  archive?: OpenNkpiArchiveOptions;
}

export async function openNkpiWorkspace(options: NkpiWorkspaceOptions): Promise<Workspace> {
  const workspace = new NkpiWorkspace(options);
  await workspace.refresh();
  return workspace;
}

export class NkpiWorkspace implements Workspace {
  readonly workspaceId: string;
  private readonly name: string;
  private readonly path: string;
  private readonly givenVersion: string | undefined;
  private readonly archiveOptions: OpenNkpiArchiveOptions;

  private revision = 0;
  private current: NkpiArchive | null = null;
  private retired: NkpiArchive[] = [];
  private error: string | null = null;
  /** What the file on disk was detected as when it last failed to open. */
  private detected: PvfContainer | null = null;
  private failedIdentity: FileIdentity | null = null;
  private attempted = false;
  private closed = false;
  private bumpedForReopen = false;
  private refreshing: Promise<void> | null = null;
  private currentView: NkpiView | null = null;

  constructor(options: NkpiWorkspaceOptions) {
    this.workspaceId = options.workspaceId;
    this.name = options.name;
    this.path = nodePath.resolve(options.path);
    this.givenVersion = options.pvfVersion;
    this.archiveOptions = options.archive ?? {};
  }

  info(): WorkspaceInfo {
    const open = this.current !== null && !this.closed;
    const warnings = open ? this.warnings() : [];
    return {
      workspaceId: this.workspaceId,
      name: this.name,
      kind: 'pvf-nkpi',
      pvfVersion: this.givenVersion ?? this.current?.clientVersion ?? this.detected?.clientVersion ?? '',
      revision: this.revision,
      fileCount: open && this.current ? this.current.fileCount : 0,
      encoding: NKPI_ENCODING,
      archiveOpen: open,
      error: this.closed ? 'the workspace is closed' : open ? null : (this.error ?? 'the archive is not open'),
      // Problems that do not stop reading, when there are any (as the classic workspace reports them).
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  /** The container of the archive: family, variant, client version, whether it reads. */
  container(): PvfContainer {
    if (this.current) return { family: 'nkpi', variant: this.current.variant, clientVersion: this.current.clientVersion, readable: true };
    if (this.detected) return this.detected;
    return { family: 'unknown', variant: '', clientVersion: '', readable: false, ...(this.error === null ? {} : { reason: this.error }) };
  }

  /** Problems that do not stop reading (skipped names, duplicates, dropped tokens). */
  warnings(): string[] {
    return this.current?.warnings() ?? [];
  }

  async view(): Promise<WorkspaceView> {
    await this.refresh();
    const archive = this.current;
    if (this.closed || !archive) {
      throw new PvfdocError('NO_ARCHIVE', `workspace ${this.workspaceId} has no readable archive: ${this.closed ? 'it is closed' : (this.error ?? 'not open')}`, {
        hint: 'Check the Script.pvf given to --workspace (it must be a readable nkpi archive: pvfine 90US or 90CN); the workspace opens by itself once the file is fixed.',
        data: { workspaceId: this.workspaceId, archive: this.path },
      });
    }
    if (!this.currentView || this.currentView.revision !== this.revision || this.currentView.archive !== archive) {
      this.currentView = new NkpiView(this, this.revision, archive);
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
    let next: NkpiArchive | null = null;
    let failure: string | null = null;
    let detected: PvfContainer | null = null;
    try {
      next = await openNkpiArchive(this.path, this.archiveOptions);
    } catch (error) {
      failure = isPvfdocError(error) ? error.message : `archive ${this.path} cannot be opened: ${(error as Error).message}`;
      if (isPvfdocError(error) && error.code === 'INVALID_ARCHIVE') {
        detected = await detectPvfContainer(this.path);
        if (detected.family === 'nkpi' && detected.variant === 'paged110' && detected.reason) failure = detected.reason;
        else if (detected.family === 'classic') failure = `${this.path}: this is a classic (pvfUtility) archive, not an nkpi one; open it as a classic workspace`;
      }
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
      this.detected = null;
      this.failedIdentity = null;
      if (!this.bumpedForReopen) this.revision++;
    } else {
      this.current = null;
      this.error = failure;
      this.detected = detected;
      this.failedIdentity = identity;
      if ((first || wasOpen) && !this.bumpedForReopen) this.revision++;
    }
    this.bumpedForReopen = false;
    this.currentView = null;
  }

  private async retire(archive: NkpiArchive): Promise<void> {
    const older = this.retired;
    this.retired = [archive];
    for (const old of older) await old.close();
  }

  // --- Called by views ---

  /** The archive changed under a view: count the change now (once) and refuse the read. */
  stale(view: NkpiView, path: string): never {
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

class NkpiView implements WorkspaceView {
  constructor(
    private readonly workspace: NkpiWorkspace,
    readonly revision: number,
    readonly archive: NkpiArchive,
  ) {}

  resolveFile(path: string): string | null {
    const entry = this.archive.resolve(path);
    return entry < 0 ? null : this.archive.pathOf(entry);
  }

  listDirectory(path: string): WorkspaceEntry[] {
    return this.archive.list(path).map((e) => ({ name: e.name, path: e.path, kind: e.kind, size: e.size }));
  }

  readText(path: string): WorkspaceText {
    const entry = this.archive.file(path);
    checkSize(this.archive.pathOf(entry), this.archive.sizeOf(entry));
    const text = this.guard(this.archive.pathOf(entry), () => this.archive.readText(path));
    return { path: text.path, text: text.text, textRevision: text.textRevision, isScript: text.isScript };
  }

  readBytes(path: string): Uint8Array {
    const entry = this.archive.file(path);
    checkSize(this.archive.pathOf(entry), this.archive.sizeOf(entry));
    return this.guard(this.archive.pathOf(entry), () => this.archive.readFile(path));
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
  if (size <= MAX_NKPI_READ_BYTES) return;
  throw new PvfdocError('RESPONSE_TOO_LARGE', `${path} is ${size} bytes; files over ${MAX_NKPI_READ_BYTES} bytes (32 MiB) are not read`, {
    hint: 'This file is too large to explain or read through pvfdoc; open it with another tool.',
    data: { path, size, limit: MAX_NKPI_READ_BYTES },
  });
}
