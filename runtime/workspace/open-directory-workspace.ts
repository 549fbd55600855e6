/**
 * A folder of decompiled script text as a workspace (ARCHITECTURE §5). Read-only: nothing is written.
 *
 * Index. `view()` works on an index of the folder (every file's archive path, size, mtime and inode),
 * built by walking the folder. Paths are `/`-separated and looked up case-insensitively through a
 * lower-cased map; on a case collision (`A.equ` and `a.equ` on a case-sensitive disk) the first name in
 * code-unit order wins and the other is not part of the workspace. Names starting with `.` (`.git`,
 * `.vscode`...) are skipped. Symlinks are never followed out of the root: a file symlink counts only
 * when its real path is inside the root's real path; directory symlinks are skipped (no cycles, no
 * double listing). Every read checks the file's real path again.
 *
 * Revision (decision). A recursive `fs.watch` on the root only marks the index dirty; the next
 * `view()` walks the folder again (stat only, no reads) and bumps the revision when any file was
 * added, removed, or changed size/mtime/inode. While nothing changes, `view()` costs nothing and returns
 * the same view object, so per-view caches (reference maps, string tables) live on between requests.
 * The watcher is the fast path, not the only guard: every read through a view compares the file's
 * stat with the index (before and after reading), and a mismatch — a change the watcher has not
 * reported yet, or a read through an older view — throws STALE_WORKSPACE with the current revision
 * (bumping it at once when the view was current), so a view never mixes two states. When the watcher
 * cannot start or fails (no recursive watch support, inotify limit), the workspace falls back to
 * walking the folder on every `view()`.
 *
 * Size limit (decision). Files over MAX_FILE_READ_BYTES (32 MiB, workspace.ts) are listed but not read:
 * `readText`/`readBytes` throw RESPONSE_TOO_LARGE (with `data.size` and `data.limit`) before opening
 * them, so a 50 MB file never stalls the server.
 *
 * Text. Files are decoded as UTF-8 (a BOM is dropped; invalid bytes become U+FFFD, which explain
 * reports as a warning); the canonical text has `\n` line ends only; `textRevision` is a sha256 of it.
 * A missing root gives a workspace with `archiveOpen: false` whose `view()` throws NO_ARCHIVE; each
 * `view()` looks for the folder again, so it opens once the folder appears.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync, watch, type BigIntStats, type Dirent, type FSWatcher } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import nodePath from 'node:path';
import { PvfdocError } from '../errors.js';
import { binaryAniText } from '../classic/binary-ani.js';
import { decodeUtf8TextSteps } from '../script/decode-text.js';
import { LruCache, MAX_CACHED_TEXT_UNITS, TEXT_CACHE_UNITS } from '../script/lru-cache.js';
import { foldPath, isScriptFile, normalizeArchivePath } from '../script/archive-path.js';
import { checkReadSize, type Workspace, type WorkspaceEntry, type WorkspaceInfo, type WorkspaceText, type WorkspaceView } from './workspace.js';
import { nestedArchiveRootWarning } from './nested-archive-root.js';
import { runSteps } from '../script/run-steps.js';

/** Path strings of a binary animation (ASCII in practice). */
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

interface DirectoryWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** The folder on disk. */
  root: string;
  /** Client version of the scripts ("" = unknown). */
  pvfVersion?: string;
}

export async function openDirectoryWorkspace(options: DirectoryWorkspaceOptions): Promise<Workspace> {
  const workspace = new DirectoryWorkspace(options);
  await workspace.refresh();
  return workspace;
}

// --- Index ---

interface FileRecord {
  kind: 'file';
  /** Archive path, original case. */
  path: string;
  name: string;
  /** Absolute path on disk. */
  fsPath: string;
  size: number;
  mtimeNs: bigint;
  ino: bigint;
}

interface DirRecord {
  kind: 'directory';
  path: string;
  name: string;
  /** Folded child name → child. */
  children: Map<string, FileRecord | DirRecord>;
}

interface Snapshot {
  /** Folded path → file. */
  files: Map<string, FileRecord>;
  /** Folded path → folder ("" = root). */
  dirs: Map<string, DirRecord>;
}

/** `{ warnings }` for info() when the folder holds its archive one level down (a look at the root and its folders only). */
function warningsOf(snapshot: Snapshot): { warnings?: string[] } {
  const children = (folder: string): string[] => {
    const dir = snapshot.dirs.get(foldPath(folder));
    return dir === undefined ? [] : [...dir.children.values()].filter((child) => child.kind === 'directory').map((child) => child.name);
  };
  const warning = nestedArchiveRootWarning(children);
  return warning === null ? {} : { warnings: [warning] };
}

function emptySnapshot(): Snapshot {
  return { files: new Map(), dirs: new Map([['', { kind: 'directory', path: '', name: '', children: new Map() }]]) };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a real path lies in the workspace folder, by the platform's path rules: on Windows
 * (`path.win32`) drive letters and names compare without case, and `\` is the separator.
 */
export function isInsideFolder(rootReal: string, candidate: string, paths: nodePath.PlatformPath = nodePath): boolean {
  const fold = paths.sep === '\\' ? (s: string) => s.toLowerCase() : (s: string) => s;
  const root = fold(paths.normalize(rootReal));
  const child = fold(paths.normalize(candidate));
  return child === root || child.startsWith(root.endsWith(paths.sep) ? root : root + paths.sep);
}

const isInside = (rootReal: string, candidate: string) => isInsideFolder(rootReal, candidate);

/** Walks the folder (stat only). Unreadable subfolders and vanished entries are skipped. */
async function scanFolder(rootReal: string): Promise<Snapshot> {
  const snapshot = emptySnapshot();
  const { files, dirs } = snapshot;

  const fileStat = async (entry: Dirent, fsPath: string): Promise<BigIntStats | null> => {
    try {
      if (entry.isSymbolicLink()) {
        const target = await realpath(fsPath);
        if (!isInside(rootReal, target)) return null;
      } else if (!entry.isFile()) {
        return null;
      }
      const st = await stat(fsPath, { bigint: true });
      return st.isFile() ? st : null;
    } catch {
      return null;
    }
  };

  const walk = async (dirFs: string, dir: DirRecord, isRoot: boolean): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dirFs, { withFileTypes: true });
    } catch (cause) {
      if (isRoot) throw cause;
      return;
    }
    entries = entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => compareNames(a.name, b.name));
    const stats = await Promise.all(entries.map((e) => (e.isDirectory() ? Promise.resolve(null) : fileStat(e, nodePath.join(dirFs, e.name)))));
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as Dirent;
      const path = dir.path === '' ? entry.name : `${dir.path}/${entry.name}`;
      const folded = foldPath(path);
      const fsPath = nodePath.join(dirFs, entry.name);
      if (entry.isDirectory()) {
        if (files.has(folded)) continue;
        let node = dirs.get(folded);
        if (!node) {
          node = { kind: 'directory', path, name: entry.name, children: new Map() };
          dirs.set(folded, node);
          dir.children.set(foldPath(entry.name), node);
        }
        // A case-twin folder (`A/` next to `a/`) merges into the first; its files keep their own paths.
        await walk(fsPath, node, false);
        continue;
      }
      const st = stats[i];
      if (!st || files.has(folded) || dirs.has(folded)) continue;
      const record: FileRecord = { kind: 'file', path, name: entry.name, fsPath, size: Number(st.size), mtimeNs: st.mtimeNs, ino: st.ino };
      files.set(folded, record);
      dir.children.set(foldPath(entry.name), record);
    }
  };

  await walk(rootReal, snapshot.dirs.get('') as DirRecord, true);
  return snapshot;
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  if (a.files.size !== b.files.size || a.dirs.size !== b.dirs.size) return false;
  for (const [key, x] of a.files) {
    const y = b.files.get(key);
    if (!y || y.path !== x.path || y.size !== x.size || y.mtimeNs !== x.mtimeNs || y.ino !== x.ino) return false;
  }
  for (const [key, x] of a.dirs) {
    const y = b.dirs.get(key);
    if (!y || y.path !== x.path) return false;
  }
  return true;
}

function sameStat(st: BigIntStats, record: FileRecord): boolean {
  return st.isFile() && Number(st.size) === record.size && st.mtimeNs === record.mtimeNs && st.ino === record.ino;
}

// --- Workspace ---

class DirectoryWorkspace implements Workspace {
  readonly workspaceId: string;
  private readonly name: string;
  private readonly root: string;
  private readonly pvfVersion: string;

  private revision = 0;
  private snapshot: Snapshot = emptySnapshot();
  private rootReal: string | null = null;
  private error: string | null = null;
  private closed = false;
  private scanned = false;
  /** Something may have changed since the last walk (watcher event, failed read check). */
  private dirty = true;
  /** A read already bumped the revision for changes the next walk will find. */
  private bumpedSinceScan = false;
  private watcher: FSWatcher | null = null;
  /** Watching failed once: walk on every view() from then on. */
  private pollOnly = false;
  private scanning: Promise<void> | null = null;
  private currentView: DirectoryView | null = null;
  /** Decoded texts kept across views. */
  private readonly textCache = new LruCache<string, WorkspaceText>(TEXT_CACHE_UNITS, (text) => text.text.length, MAX_CACHED_TEXT_UNITS);

  constructor(options: DirectoryWorkspaceOptions) {
    this.workspaceId = options.workspaceId;
    this.name = options.name;
    this.root = nodePath.resolve(options.root);
    this.pvfVersion = options.pvfVersion ?? '';
  }

  info(): WorkspaceInfo {
    const open = this.rootReal !== null && !this.closed;
    return {
      workspaceId: this.workspaceId,
      name: this.name,
      kind: 'directory',
      pvfVersion: this.pvfVersion,
      revision: this.revision,
      fileCount: open ? this.snapshot.files.size : 0,
      encoding: 'utf-8',
      archiveOpen: open,
      error: this.closed ? 'the workspace is closed' : this.error,
      ...(open ? warningsOf(this.snapshot) : {}),
    };
  }

  async view(): Promise<WorkspaceView> {
    await this.refresh();
    if (this.closed || this.rootReal === null) {
      throw new PvfdocError('NO_ARCHIVE', `workspace ${this.workspaceId} has no readable folder: ${this.closed ? 'it is closed' : (this.error ?? 'not open')}`, {
        hint: 'Check the folder given to --workspace (it must exist and be readable); the workspace opens by itself once it does.',
        data: { workspaceId: this.workspaceId },
      });
    }
    if (!this.currentView || this.currentView.revision !== this.revision) {
      this.currentView = new DirectoryView(this, this.revision, this.snapshot);
    }
    return this.currentView;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatcher();
    this.currentView = null;
    this.textCache.clear();
  }

  /** Walks the folder again when something may have changed (or always, without a watcher). */
  async refresh(): Promise<void> {
    if (this.closed) return;
    if (this.scanning) return this.scanning;
    if (this.scanned && this.rootReal !== null && !this.dirty && !this.pollOnly) return;
    this.scanning = this.scan().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  /** The folder cannot be read: no files until a later scan finds it again. */
  private fail(error: string, bump: boolean): void {
    this.error = error;
    this.stopWatcher();
    if (bump) this.revision++;
    this.rootReal = null;
    this.snapshot = emptySnapshot();
    this.scanned = true;
    this.dirty = true;
  }

  private async scan(): Promise<void> {
    const wasOpen = this.rootReal !== null;
    const firstScan = !this.scanned;
    let rootReal: string;
    try {
      rootReal = await realpath(this.root);
      const st = await stat(rootReal);
      if (!st.isDirectory()) throw new Error(`${this.root} is not a folder`);
    } catch (cause) {
      this.fail(cause instanceof Error && (cause as NodeJS.ErrnoException).code === 'ENOENT' ? `folder ${this.root} does not exist` : `folder ${this.root} cannot be opened: ${(cause as Error).message}`, firstScan || wasOpen);
      return;
    }
    if (this.rootReal !== null && this.rootReal !== rootReal) this.stopWatcher();
    this.dirty = false;
    if (!this.watcher && !this.pollOnly) this.startWatcher(rootReal);
    let next: Snapshot;
    try {
      next = await scanFolder(rootReal);
    } catch (cause) {
      this.fail(`folder ${this.root} cannot be read: ${(cause as Error).message}`, firstScan || wasOpen);
      return;
    }
    if (this.closed) return;
    const changed = firstScan || !wasOpen || this.rootReal !== rootReal || !sameSnapshot(this.snapshot, next);
    if (changed && !this.bumpedSinceScan) this.revision++;
    // After a read-detected change the revision already moved: the new index belongs to it.
    if (changed || this.bumpedSinceScan) this.snapshot = next;
    this.bumpedSinceScan = false;
    this.rootReal = rootReal;
    this.error = null;
    this.scanned = true;
  }

  private startWatcher(rootReal: string): void {
    try {
      const watcher = watch(rootReal, { recursive: true, persistent: false });
      watcher.on('change', () => {
        this.dirty = true;
      });
      watcher.on('error', () => {
        this.dirty = true;
        this.pollOnly = true;
        this.stopWatcher();
      });
      this.watcher = watcher;
    } catch {
      this.pollOnly = true;
    }
  }

  private stopWatcher(): void {
    const watcher = this.watcher;
    this.watcher = null;
    try {
      watcher?.close();
    } catch {
      // already closed
    }
  }

  // --- Reads (called by views) ---

  /** The file changed under a view: count the change now (once) and refuse the read. */
  stale(view: DirectoryView, path: string): never {
    if (!this.closed && view.revision === this.revision) {
      this.revision++;
      this.bumpedSinceScan = true;
    }
    this.dirty = true;
    throw new PvfdocError('STALE_WORKSPACE', `${path} changed on disk after revision ${view.revision} was indexed; the workspace is now at revision ${this.revision}`, {
      hint: 'Call workspace_info (or repeat without expectedRevision mismatch) to get the current revision, then repeat the request with it and without a cursor.',
      data: { revision: this.revision, path },
    });
  }

  readBytes(view: DirectoryView, record: FileRecord): Buffer {
    checkReadSize(record.path, record.size);
    this.checkRealPath(view, record);
    let fd: number;
    try {
      fd = openSync(record.fsPath, 'r');
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') this.stale(view, record.path);
      throw new PvfdocError('IO_ERROR', `${record.path} cannot be read: ${(cause as Error).message}`, { data: { path: record.path }, cause });
    }
    try {
      if (!sameStat(fstatSync(fd, { bigint: true }), record)) this.stale(view, record.path);
      // One byte of room: a file that grew since the stat is caught by the length check.
      const buffer = Buffer.allocUnsafe(record.size + 1);
      let total = 0;
      for (;;) {
        const n = readSync(fd, buffer, total, buffer.length - total, null);
        if (n === 0) break;
        total += n;
        if (total === buffer.length) break;
      }
      if (total !== record.size || !sameStat(fstatSync(fd, { bigint: true }), record)) this.stale(view, record.path);
      return buffer.subarray(0, total);
    } finally {
      closeSync(fd);
    }
  }

  readText(view: DirectoryView, record: FileRecord): WorkspaceText {
    return runSteps(this.readTextSteps(view, record, Number.POSITIVE_INFINITY));
  }

  /** readText in steps: a large file is decoded and hashed between yields (decode-text.ts). */
  *readTextSteps(view: DirectoryView, record: FileRecord, stepBytes?: number): Generator<void, WorkspaceText> {
    const key = `${record.fsPath}\u0000${record.size}\u0000${record.mtimeNs}\u0000${record.ino}`;
    const cached = this.textCache.get(key);
    if (cached) {
      this.checkRealPath(view, record);
      let st: BigIntStats | undefined;
      try {
        st = statSync(record.fsPath, { bigint: true });
      } catch {
        st = undefined;
      }
      if (!st || !sameStat(st, record)) this.stale(view, record.path);
      return cached;
    }
    const bytes = this.readBytes(view, record);
    // A binary animation copied out of an archive as it is stored reads as the archive reads it.
    const ani = binaryAniText(record.path, bytes, (b) => UTF8.decode(b));
    if (ani !== null) {
      const result: WorkspaceText = { path: record.path, text: ani.text, textRevision: ani.textRevision, isScript: true };
      this.textCache.set(key, result);
      return result;
    }
    const { text, textRevision } = yield* decodeUtf8TextSteps(bytes, stepBytes);
    const result: WorkspaceText = { path: record.path, text, textRevision, isScript: isScriptFile(record.path, bytes) };
    this.textCache.set(key, result);
    return result;
  }

  /** A folder on the way may have been swapped for a symlink pointing elsewhere since the walk. */
  private checkRealPath(view: DirectoryView, record: FileRecord): void {
    const rootReal = this.rootReal;
    let real: string;
    try {
      real = realpathSync.native(record.fsPath);
    } catch {
      return this.stale(view, record.path);
    }
    if (rootReal === null || !isInside(rootReal, real)) this.stale(view, record.path);
  }
}

class DirectoryView implements WorkspaceView {
  constructor(
    private readonly workspace: DirectoryWorkspace,
    readonly revision: number,
    private readonly snapshot: Snapshot,
  ) {}

  resolveFile(path: string): string | null {
    const canonical = normalizeArchivePath(path);
    if (canonical === '') return null;
    return this.snapshot.files.get(foldPath(canonical))?.path ?? null;
  }

  listDirectory(path: string): WorkspaceEntry[] {
    const canonical = normalizeArchivePath(path);
    const dir = this.snapshot.dirs.get(foldPath(canonical));
    if (!dir) {
      const isFile = this.snapshot.files.has(foldPath(canonical));
      throw new PvfdocError('FILE_NOT_FOUND', isFile ? `${canonical} is a file, not a folder` : `folder ${JSON.stringify(canonical)} is not in the workspace`, {
        hint: isFile ? 'List its folder instead; read or explain the file itself.' : 'List the parent folder (or the root with an empty path) to see what exists.',
        data: { path: canonical },
      });
    }
    const entries: WorkspaceEntry[] = [...dir.children.values()].map((child) => ({
      name: child.name,
      path: child.path,
      kind: child.kind,
      size: child.kind === 'file' ? child.size : null,
    }));
    return entries.sort((a, b) => {
      if (a.kind !== b.kind) return a.kind === 'directory' ? -1 : 1;
      return compareNames(a.name.toLowerCase(), b.name.toLowerCase()) || compareNames(a.name, b.name);
    });
  }

  readText(path: string): WorkspaceText {
    return this.workspace.readText(this, this.record(path));
  }

  readTextSteps(path: string): Generator<void, WorkspaceText> {
    return this.workspace.readTextSteps(this, this.record(path));
  }

  readBytes(path: string): Uint8Array {
    return this.workspace.readBytes(this, this.record(path));
  }

  private record(path: string): FileRecord {
    const canonical = normalizeArchivePath(path);
    const record = canonical === '' ? undefined : this.snapshot.files.get(foldPath(canonical));
    if (!record) {
      throw new PvfdocError('FILE_NOT_FOUND', `file ${JSON.stringify(canonical)} is not in the workspace`, {
        hint: 'Use list_files to see the files of a folder; paths are relative to the workspace root.',
        data: { path: canonical },
      });
    }
    return record;
  }
}
