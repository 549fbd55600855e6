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
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw invalid('".." segments are not allowed');
    parts.push(part);
  }
  return parts.join('/');
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

/** Lower-cased final extension with the dot (".equ"), or "". */
export function extensionOf(path: string): string {
  const base = basenameOf(path);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
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
