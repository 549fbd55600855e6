/**
 * Which container a Script.pvf is (pvf-nkpi-format §3, pvf-classic-format §2.1), for picking a
 * workspace opener and reporting the client version:
 *
 * | family | variant | clientVersion | readable |
 * |---|---|---|---|
 * | nkpi | `standard`, `standard-guard` | 90US | yes |
 * | nkpi | `alternate`, `alternate-guard` | 90CN | yes |
 * | nkpi | `paged110` | 110US | no: recognised, but not readable without the client's key files |
 * | classic | `classic` | "" (the classic format reveals none) | yes |
 * | unknown | "" | "" | no |
 *
 * Order: the nkpi header probes (standard keys, then alternate); then the Paged110 look (plaintext
 * file items right after page 0's 10,240-byte AES guard); then the classic header; then a non-empty
 * `sk.dat` next to the file (pvfine's `ErrPaged110Keys`); else unknown. Only headers are checked
 * (at most 16 KiB read): `readable` means pvfdoc has a reader for the container and its header is
 * consistent; damage further in shows when the archive is opened. Never throws: a missing or
 * unreadable file is `unknown` with the reason.
 */
import { readdir, stat } from 'node:fs/promises';
import nodePath from 'node:path';
import { openFileSource } from '../script/archive-source.js';
import { HEADER_PROBE_BYTES, parseClassicHeader } from '../classic/header.js';
import { isPvfdocError } from '../errors.js';
import { clientVersionOf, probeNkpiHeader } from '../nkpi/header.js';
import { FIRST_PLAIN_ITEM, looksLikePagedFileTable } from '../nkpi/paged.js';

type PvfFamily = 'classic' | 'nkpi' | 'unknown';

export interface PvfContainer {
  family: PvfFamily;
  /** `standard`, `standard-guard`, `alternate`, `alternate-guard`, `paged110`, `classic`, or "" when unknown. */
  variant: string;
  clientVersion: '90US' | '90CN' | '110US' | '';
  /** Whether pvfdoc can read it (see the module comment). */
  readable: boolean;
  /** Why not readable (or why unknown). */
  reason?: string;
}

/** What a Paged110 archive without its keys is reported as (the exact wording of the issue). */
export const PAGED110_UNREADABLE =
  'paged 110 nkpi archive (110US): recognised, but not readable without the client’s key files (sk.dat next to the archive, unwrapped with the RSA and metadata keys of the client executable; pvfdoc ships no such keys)';

/** Bytes read from the start of a file for detection. */
const DETECT_PROBE_BYTES = Math.max(HEADER_PROBE_BYTES, FIRST_PLAIN_ITEM + 24 * 256);

/** Detects the container of the file at `path`. */
export async function detectPvfContainer(path: string): Promise<PvfContainer> {
  let source;
  try {
    source = await openFileSource(path);
  } catch (error) {
    return { family: 'unknown', variant: '', clientVersion: '', readable: false, reason: (error as Error).message };
  }
  try {
    const start = source.read(0, Math.min(source.size, DETECT_PROBE_BYTES));
    return detectPvfContainerBytes(start, source.size, path, { keyFilePresent: await keyFilePresent(path) });
  } catch (error) {
    return { family: 'unknown', variant: '', clientVersion: '', readable: false, reason: (error as Error).message };
  } finally {
    await source.close();
  }
}

/**
 * Detection from the first DETECT_PROBE_BYTES bytes of a file of `fileSize` bytes (`label` names it in
 * reasons); `keyFilePresent`: a non-empty `sk.dat` lies next to it.
 */
function detectPvfContainerBytes(start: Uint8Array, fileSize: number, label: string, options: { keyFilePresent?: boolean } = {}): PvfContainer {
  const probe = probeNkpiHeader(start, fileSize);
  if (probe.ok) return { family: 'nkpi', variant: probe.ok.variant, clientVersion: clientVersionOf(probe.ok.variant), readable: true };
  if (probe.keys) {
    const variant = probe.keys.name;
    return { family: 'nkpi', variant, clientVersion: variant === 'alternate' ? '90CN' : '90US', readable: false, reason: `${label}: ${probe.problem}` };
  }
  if (fileSize > FIRST_PLAIN_ITEM && looksLikePagedFileTable(start.subarray(FIRST_PLAIN_ITEM))) {
    return { family: 'nkpi', variant: 'paged110', clientVersion: '110US', readable: false, reason: `${label}: ${PAGED110_UNREADABLE}` };
  }
  try {
    parseClassicHeader(start, fileSize, label);
    return { family: 'classic', variant: 'classic', clientVersion: '', readable: true };
  } catch (error) {
    const family = isPvfdocError(error) ? error.data?.['family'] : undefined;
    if (family !== 'unknown' && family !== 'nkpi') {
      return { family: 'classic', variant: 'classic', clientVersion: '', readable: false, reason: (error as Error).message };
    }
  }
  if (options.keyFilePresent) return { family: 'nkpi', variant: 'paged110', clientVersion: '110US', readable: false, reason: `${label}: ${PAGED110_UNREADABLE}` };
  return {
    family: 'unknown',
    variant: '',
    clientVersion: '',
    readable: false,
    reason: `${label}: not a PVF archive: neither an nkpi header (standard or alternate keys), nor a paged 110 file table, nor a classic header`,
  };
}

/** Whether a non-empty `sk.dat` (any case) lies in the archive's folder. */
async function keyFilePresent(path: string): Promise<boolean> {
  const dir = nodePath.dirname(nodePath.resolve(path));
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.toLowerCase() !== 'sk.dat' || !entry.isFile()) continue;
      const { size } = await stat(nodePath.join(dir, entry.name));
      if (size > 0) return true;
    }
  } catch {
    return false;
  }
  return false;
}
