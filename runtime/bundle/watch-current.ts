/**
 * Hot reload of `snapshots/current` (ARCHITECTURE §5). fs.watch on the snapshots folder reacts at once;
 * a low-frequency poll of the small pointer file catches what fs.watch misses (network and container
 * file systems). A new bundle is loaded and fully checked before it is swapped in; a bundle that fails
 * leaves the old one serving under its old revision and is reported through the holder.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { formatError, isPvfdocError, PvfdocError } from '../errors.js';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from './load-bundle.js';
import type { RulesHolder } from './rules-holder.js';

const DEFAULT_POLL_MS = 2000;
/** fs.watch fires several events for one build (temp folder, rename, pointer); react once. */
const DEBOUNCE_MS = 100;

type ReloadLog = (level: 'info' | 'warn', scope: string, message: string) => void;

interface WatchCurrentOptions {
  snapshotsDir: string;
  holder: RulesHolder;
  pollMs?: number;
  log?: ReloadLog;
}

export interface CurrentBundleWatcher {
  /**
   * Looks at the pointer now and activates a new bundle if it names one. With `force`, a bundle that
   * failed before is tried again even if the pointer did not change.
   */
  check(options?: { force?: boolean }): Promise<void>;
  close(): void;
}

/** Loads the bundle `snapshotsDir/current` names, with every check a reload makes. */
export async function loadCurrentBundle(snapshotsDir: string): Promise<Bundle> {
  const dir = await resolveCurrentBundleDir(snapshotsDir);
  return verifyBundle(await loadBundle(dir), dir);
}

/**
 * The checks loadBundle leaves for later: values are parsed now (not during a request), and the folder
 * name must be the revision its manifest declares (snapshots are content-addressed).
 */
function verifyBundle(bundle: Bundle, dir: string): Bundle {
  const first = bundle.documents[0];
  if (first) bundle.valuesOf(first.documentId);
  if (path.basename(dir) !== bundle.rulesRevision) {
    throw new PvfdocError('INVALID_BUNDLE', `${dir} holds rulesRevision ${bundle.rulesRevision}, not the revision its folder name says`, {
      hint: 'Rebuild the snapshot with pvfdoc build; bundles are never copied or edited by hand.',
      data: { file: 'manifest.json' },
    });
  }
  return bundle;
}

export function watchCurrentBundle(options: WatchCurrentOptions): CurrentBundleWatcher {
  const { snapshotsDir, holder } = options;
  const log: ReloadLog = options.log ?? (() => undefined);
  // What the pointer named at the last check (a bundle folder, or why it could not be read).
  let lastSeen: string = holder.current().bundle.dir;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  let debounce: NodeJS.Timeout | undefined;

  const checkNow = async (force: boolean): Promise<void> => {
    if (closed) return;
    let dir: string | null = null;
    let pointerError: unknown = null;
    try {
      dir = await resolveCurrentBundleDir(snapshotsDir);
    } catch (error) {
      pointerError = error;
    }
    const seen = dir ?? `error:${describe(pointerError)}`;
    if (!force && seen === lastSeen) return;
    lastSeen = seen;
    if (dir === null) {
      fail(pointerError);
      return;
    }
    if (dir === holder.current().bundle.dir) {
      holder.clearReloadFailure();
      return;
    }
    try {
      const bundle = verifyBundle(await loadBundle(dir), dir);
      if (closed) return;
      const previous = holder.current().bundle.rulesRevision;
      holder.activate(bundle);
      log('info', 'rules', `activated rulesRevision ${bundle.rulesRevision} (was ${previous})`);
    } catch (error) {
      fail(error);
    }
  };

  const fail = (error: unknown) => {
    const message = describe(error);
    holder.reportReloadFailure(message);
    log('warn', 'rules', `reload failed; still serving rulesRevision ${holder.current().bundle.rulesRevision}: ${message}`);
  };

  const check = (force: boolean): Promise<void> => {
    // One check at a time, in order: a slow load never races a newer pointer.
    running = running.then(() => checkNow(force)).catch((error: unknown) => log('warn', 'rules', `reload check failed: ${describe(error)}`));
    return running;
  };

  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(snapshotsDir, { persistent: false }, () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => void check(true), DEBOUNCE_MS);
    });
    watcher.on('error', (error) => {
      log('warn', 'rules', `watching ${snapshotsDir} stopped (${error.message}); polling every ${options.pollMs ?? DEFAULT_POLL_MS} ms`);
      watcher?.close();
      watcher = null;
    });
  } catch (error) {
    log('warn', 'rules', `cannot watch ${snapshotsDir} (${describe(error)}); polling every ${options.pollMs ?? DEFAULT_POLL_MS} ms`);
  }
  const poll = setInterval(() => void check(false), options.pollMs ?? DEFAULT_POLL_MS);
  poll.unref();

  return {
    check: (opts) => check(opts?.force ?? false),
    close() {
      closed = true;
      clearInterval(poll);
      clearTimeout(debounce);
      watcher?.close();
      watcher = null;
    },
  };
}

function describe(error: unknown): string {
  if (isPvfdocError(error)) return `[${error.code}] ${formatError(error)}`;
  return error instanceof Error ? error.message : String(error);
}
