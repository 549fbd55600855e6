/**
 * Where archive bytes come from: a file opened read-only (`fs.promises.open(path, 'r')`) and read at
 * offsets, never loaded whole; or bytes in memory (tests, fuzzing). Reads are synchronous positioned
 * reads on the handle's descriptor so that workspace views (a synchronous contract) can read lazily.
 */
import { fstatSync, readSync, type BigIntStats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { PvfdocError } from '../errors.js';

export interface ArchiveSource {
  /** The archive file named in messages. */
  readonly label: string;
  /** Size in bytes when opened. */
  readonly size: number;
  /**
   * `length` bytes at `position` (fewer only when the source ends early). With `into` (at least
   * `length` bytes), a source may read into it and return a view of it, so that a caller that is done
   * with the bytes before its next read allocates nothing.
   */
  read(position: number, length: number, into?: Uint8Array): Uint8Array;
  /** Whether the file on disk is no longer the one opened (written in place since). */
  changed(): boolean;
  close(): Promise<void>;
}

/** What identifies one version of a file on disk. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export function identityOf(st: BigIntStats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** The STALE_WORKSPACE error of a read through a closed or rewritten archive version. */
export function archiveChanged(label: string): PvfdocError {
  return new PvfdocError('STALE_WORKSPACE', `${label} changed on disk (or this version of it was closed) after it was opened`, {
    hint: 'Call workspace_info to get the current revision, then repeat the request.',
    data: { archive: label },
  });
}

class FileSource implements ArchiveSource {
  private closed = false;

  constructor(
    readonly label: string,
    private readonly handle: FileHandle,
    readonly identity: FileIdentity,
  ) {}

  get size(): number {
    return Number(this.identity.size);
  }

  read(position: number, length: number, into?: Uint8Array): Uint8Array {
    if (this.closed) throw archiveChanged(this.label);
    // Not zero-filled (the open reads ~20 MiB at once): only the bytes the reads fill are ever returned.
    // Unpooled, so each read owns its ArrayBuffer as with Buffer.alloc.
    const buffer = into !== undefined && into.length >= length ? into : Buffer.allocUnsafeSlow(length);
    let total = 0;
    try {
      while (total < length) {
        const n = readSync(this.handle.fd, buffer, total, length - total, position + total);
        if (n === 0) break;
        total += n;
      }
    } catch (cause) {
      throw new PvfdocError('IO_ERROR', `${this.label} cannot be read at byte ${position}: ${(cause as Error).message}`, {
        data: { archive: this.label },
        cause,
      });
    }
    return total === buffer.length ? buffer : buffer.subarray(0, total);
  }

  changed(): boolean {
    if (this.closed) return true;
    try {
      return !sameIdentity(identityOf(fstatSync(this.handle.fd, { bigint: true })), this.identity);
    } catch {
      return true;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}

/** Opens `path` read-only. IO_ERROR (naming the file) when it is missing or unreadable. */
export async function openFileSource(path: string): Promise<ArchiveSource & { readonly identity: FileIdentity }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder, not an archive file' : `cannot be opened: ${(cause as Error).message}`;
    throw new PvfdocError('IO_ERROR', `archive ${path} ${why}`, {
      hint: 'Check the path given to --workspace: it must be a readable Script.pvf file.',
      data: { archive: path },
      cause,
    });
  }
  try {
    const st = await handle.stat({ bigint: true });
    if (!st.isFile()) throw new PvfdocError('IO_ERROR', `archive ${path} is not a regular file`, { data: { archive: path } });
    return new FileSource(path, handle, identityOf(st));
  } catch (error) {
    await handle.close();
    if (error instanceof PvfdocError) throw error;
    throw new PvfdocError('IO_ERROR', `archive ${path} cannot be read: ${(error as Error).message}`, { data: { archive: path }, cause: error });
  }
}

/** Bytes in memory as an archive source (tests, fuzzing). */
export function bytesSource(bytes: Uint8Array, label: string): ArchiveSource {
  let closed = false;
  return {
    label,
    size: bytes.length,
    read(position, length) {
      if (closed) throw archiveChanged(label);
      const start = Math.min(Math.max(0, position), bytes.length);
      // A copy: callers decrypt in place.
      return Uint8Array.from(bytes.subarray(start, Math.min(bytes.length, start + length)));
    },
    changed: () => closed,
    async close() {
      closed = true;
    },
  };
}
