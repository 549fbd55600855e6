/**
 * The archive formats a workspace can open: one driver per reader folder, in the order detection
 * tries them (detect-container.ts tells which container a file is). A new format is a reader folder
 * plus one entry here.
 */
import { isPvfdocError } from '../errors.js';
import { openClassicArchive, type ClassicArchive, type OpenClassicArchiveOptions } from '../classic/classic-archive.js';
import { normalizeEncodingName } from '../classic/text-encoding.js';
import { openNkpiArchive, type NkpiArchive, type OpenNkpiArchiveOptions } from '../nkpi/nkpi-archive.js';
import type { ArchiveDriver, OpenedArchive } from './archive-workspace.js';
import { detectPvfContainer, type PvfContainer } from './detect-container.js';
import type { WorkspaceText } from './workspace.js';

/** Script strings are UTF-8 (sTrA) or UTF-16 (sTrW); text files are UTF-16LE. */
const NKPI_ENCODING = 'utf-8';

export const nkpiDriver: ArchiveDriver<OpenNkpiArchiveOptions> = {
  kind: 'pvf-nkpi',
  expects: 'a readable nkpi archive: pvfine 90US or 90CN',
  encodingWhenClosed: () => NKPI_ENCODING,
  async open(path, options) {
    return nkpiVersion(await openNkpiArchive(path, options));
  },
  async explainFailure(path, error) {
    if (!isPvfdocError(error) || error.code !== 'INVALID_ARCHIVE') return null;
    const detected = await detectPvfContainer(path);
    let reason = error.message;
    if (detected.family === 'nkpi' && detected.variant === 'paged110' && detected.reason) reason = detected.reason;
    else if (detected.family === 'classic') reason = `${path}: this is a classic (pvfUtility) archive, not an nkpi one; open it as a classic workspace`;
    return { reason, clientVersion: detected.clientVersion };
  },
};

export const classicDriver: ArchiveDriver<OpenClassicArchiveOptions> = {
  kind: 'pvf-classic',
  expects: 'a readable classic pvfUtility archive',
  encodingWhenClosed(options) {
    if (options.encoding === undefined) return '';
    try {
      return normalizeEncodingName(options.encoding);
    } catch {
      return options.encoding;
    }
  },
  async open(path, options) {
    return classicVersion(await openClassicArchive(path, options));
  },
};

interface ArchiveFormat {
  /** Whether a detected container is this format's. */
  detect(container: PvfContainer): boolean;
  driver: ArchiveDriver<ReaderOptions>;
}

/** Options every reader may be given; each takes the ones it knows. */
type ReaderOptions = OpenClassicArchiveOptions & OpenNkpiArchiveOptions;

/**
 * In detection order. The classic reader takes everything the others do not recognise: it reports a
 * missing or foreign file clearly and opens it once it becomes a readable archive.
 */
export const ARCHIVE_FORMATS: readonly ArchiveFormat[] = [
  { detect: (container) => container.family === 'nkpi', driver: nkpiDriver },
  { detect: () => true, driver: classicDriver },
];

function nkpiVersion(archive: NkpiArchive): OpenedArchive {
  return {
    identity: archive.identity,
    fileCount: archive.fileCount,
    encoding: NKPI_ENCODING,
    clientVersion: archive.clientVersion,
    warnings: () => archive.warnings(),
    resolve(path) {
      const entry = archive.resolve(path);
      return entry < 0 ? null : archive.pathOf(entry);
    },
    list: (path) => archive.list(path).map((e) => ({ name: e.name, path: e.path, kind: e.kind, size: e.size })),
    file(path) {
      const entry = archive.file(path);
      return { path: archive.pathOf(entry), size: archive.sizeOf(entry) };
    },
    readText: (path) => workspaceText(archive.readText(path)),
    readBytes: (path) => archive.readFile(path),
    close: () => archive.close(),
  };
}

function classicVersion(archive: ClassicArchive): OpenedArchive {
  return {
    identity: archive.identity,
    fileCount: archive.fileCount,
    encoding: archive.encoding.encoding,
    clientVersion: '',
    warnings: () => archive.warnings(),
    resolve: (path) => archive.resolve(path)?.path ?? null,
    list: (path) => archive.list(path).map((node) => ({ name: node.name, path: node.path, kind: node.kind, size: node.kind === 'file' ? node.size : null })),
    file(path) {
      const node = archive.file(path);
      return { path: node.path, size: node.size };
    },
    readText: (path) => workspaceText(archive.readText(path)),
    readBytes: (path) => archive.readFile(path),
    close: () => archive.close(),
  };
}

/** Only what the workspace contract promises (readers add their own details). */
function workspaceText(text: WorkspaceText): WorkspaceText {
  return { path: text.path, text: text.text, textRevision: text.textRevision, isScript: text.isScript };
}
