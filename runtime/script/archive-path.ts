/**
 * Archive-internal paths, shared by every workspace kind: `/`-separated, relative to the archive root,
 * compared case-insensitively. Also the "is this token-script text?" decision that folder and archive
 * workspaces make alike.
 */
import { PvfdocError } from '../errors.js';

/**
 * The canonical form of a path an agent passed in: `\` read as `/`, empty and `.` segments dropped.
 * Absolute paths (`/x`, `\x`, `//server/x`), drive letters (`C:`, `C:\x`, `C:x`), `..` segments and NUL
 * characters are refused with INVALID_ARGUMENT. "" is the archive root.
 */
export function normalizeArchivePath(input: string): string {
  const invalid = (why: string) =>
    new PvfdocError('INVALID_ARGUMENT', `path ${JSON.stringify(input)} is not a valid archive path: ${why}`, {
      hint: 'Pass a path relative to the archive root with "/" separators, e.g. "equipment/equipment.lst" (as list_files shows it).',
      data: { path: input },
    });
  if (input.includes('\u0000')) throw invalid('it contains a NUL character');
  const slashed = input.replaceAll('\\', '/');
  if (slashed.startsWith('/')) throw invalid('absolute paths are not allowed');
  if (/^[A-Za-z]:/.test(slashed)) throw invalid('drive letters are not allowed');
  const parts = segmentsOf(slashed);
  if (parts === null) throw invalid('".." segments are not allowed');
  return parts.join('/');
}

/**
 * The archive path of a name stored in an archive's file table (original case, `/`-separated, no empty
 * or `.` segments), or a reason why it cannot be one. Unlike normalizeArchivePath a leading `/` is
 * dropped, not refused: archives store such names.
 */
export function normalizeStoredName(name: string): { path: string } | { problem: string } {
  if (/[\u0000-\u001f\u007f]/.test(name)) return { problem: 'it contains control characters' };
  const parts = segmentsOf(name.replaceAll('\\', '/'));
  if (parts === null) return { problem: 'it contains a ".." segment' };
  if (parts.length === 0) return { problem: 'it is empty' };
  return { path: parts.join('/') };
}

/** The segments of a `/` path without empty and `.` ones; null when one is `..`. */
function segmentsOf(slashed: string): string[] | null {
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts;
}

/** The lookup key of a canonical path (archives compare paths case-insensitively). */
export function foldPath(path: string): string {
  return path.toLowerCase();
}

/** Go `path.Clean` for relative and rooted paths ("" → "."). */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/** Folder part of a `/` path ("" for a top-level file). */
export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Last segment of a `/` path. */
export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The one extension of the runtime: the final extension of a path's last segment, lower-cased, dot
 * included (`.equ`); "" when that segment has no dot. `\` reads as `/` and trailing `/` are ignored.
 * Like Go's `path.Ext`, which pvfine matches rules with: `a/.hidden` gives `.hidden`, `file.` gives `.`.
 */
export function extensionOf(path: string): string {
  const slashed = path.replaceAll('\\', '/').replace(/\/+$/, '');
  const base = slashed.slice(slashed.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot).toLowerCase();
}

/**
 * Extensions that are never token-script text: string tables, binaries, images, sound, archives, and
 * source text of other languages (Squirrel `.nut`, `.lua`, `.xml`).
 */
export const NON_SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([
  '.str',
  '.bin',
  '.img',
  '.npk',
  '.ogg',
  '.wav',
  '.mp3',
  '.png',
  '.dds',
  '.jpg',
  '.jpeg',
  '.gif',
  '.bmp',
  '.tga',
  '.spk',
  '.pvf',
  '.zip',
  '.7z',
  '.rar',
  '.exe',
  '.dll',
  '.nut',
  '.lua',
  '.xml',
]);

/** Whether explain can parse a file: not a known non-script extension and no NUL byte in it. */
export function isScriptFile(path: string, bytes: Uint8Array): boolean {
  return !NON_SCRIPT_EXTENSIONS.has(extensionOf(path)) && !bytes.includes(0);
}
