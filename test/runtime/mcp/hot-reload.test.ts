/**
 * Hot reload of snapshots/current (ARCHITECTURE §5): a new snapshot is activated; a corrupt one is
 * refused while the old revision keeps serving (old cursors included) and workspace_info reports the
 * failure; a later good snapshot clears it and makes old cursors STALE_RULES.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setCurrentRevision } from '../../../build/write-bundle.js';
import { createRulesHolder, type RulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { loadCurrentBundle, watchCurrentBundle, type CurrentBundleWatcher } from '../../../runtime/bundle/watch-current.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { BUILTIN_LAYER, buildSnapshot, callError, callOk, connect, eventually, tempDir, writeExtraLayer, type Connected } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let snapshots: string;
let firstRevision: string;
let holder: RulesHolder;
let watcher: CurrentBundleWatcher;
let conn: Connected;
let logs: string[];

async function start(pollMs: number): Promise<void> {
  holder = createRulesHolder(await loadCurrentBundle(snapshots));
  watcher = watchCurrentBundle({ snapshotsDir: snapshots, holder, pollMs, log: (level, scope, message) => void logs.push(`${level} [${scope}] ${message}`) });
  conn = await connect({ rules: holder, workspaces: new Map() });
}

async function info() {
  return (await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema)).out;
}

/** Copies the active bundle under another revision name with one byte of documents.json changed. */
async function writeCorruptSnapshot(): Promise<string> {
  const revision = 'deadbeefdeadbeefdead';
  const dir = path.join(snapshots, revision);
  await cp(path.join(snapshots, firstRevision), dir, { recursive: true });
  const file = path.join(dir, 'documents.json');
  await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()} \n`);
  await setCurrentRevision(snapshots, revision);
  return revision;
}

beforeEach(async () => {
  logs = [];
  tmp = await tempDir('mcp-reload');
  snapshots = path.join(tmp.dir, 'snapshots');
  firstRevision = await buildSnapshot(snapshots);
});

afterEach(async () => {
  watcher?.close();
  await conn?.close();
  await tmp?.cleanup();
});

describe('hot reload', () => {
  it('activates a new snapshot written with current, and only then changes rulesRevision', async () => {
    await start(100);
    expect((await info()).rulesRevision).toBe(firstRevision);
    const second = await buildSnapshot(snapshots, [BUILTIN_LAYER, await writeExtraLayer(path.join(tmp.dir, 'extra'))]);
    expect(second).not.toBe(firstRevision);
    const after = await eventually(async () => {
      const out = await info();
      return out.rulesRevision === second ? out : undefined;
    }, 'the new revision');
    expect(after.rules).toEqual({ status: 'ok', lastReloadError: null });
    const search = await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', section: 'extra note' }, PvfAnnotationSearchOutputSchema);
    expect(search.out.rulesRevision).toBe(second);
    expect(search.out.items.map((i) => i.ruleId)).toEqual(['extra.note']);
    expect(logs.join('\n')).toContain(`info [rules] activated rulesRevision ${second}`);
  });

  it('reacts to fs.watch without waiting for the poll', async () => {
    await start(60_000);
    await watcher.check();
    const second = await buildSnapshot(snapshots, [BUILTIN_LAYER, await writeExtraLayer(path.join(tmp.dir, 'extra'))]);
    await eventually(async () => ((await info()).rulesRevision === second ? true : undefined), 'the fs.watch reload', 5000);
  });

  it('keeps serving the old snapshot and cursors when the new one is corrupt, then recovers', async () => {
    await start(100);
    const page1 = await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 2 }, PvfAnnotationSearchOutputSchema);
    const cursor = page1.out.nextCursor;
    expect(cursor).not.toBeNull();
    const documentId = page1.out.items[0]?.documentId ?? '';

    await writeCorruptSnapshot();
    const failed = await eventually(async () => {
      const out = await info();
      return out.rules.status === 'reload_failed' ? out : undefined;
    }, 'the reload to fail');
    expect(failed.rulesRevision).toBe(firstRevision);
    expect(failed.rules.lastReloadError).toMatch(/INVALID_BUNDLE.*documents\.json.*hash/);
    expect(logs.join('\n')).toMatch(new RegExp(`warn \\[rules\\] reload failed; still serving rulesRevision ${firstRevision}`));

    const page2 = await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 2, cursor }, PvfAnnotationSearchOutputSchema);
    expect(page2.out.rulesRevision).toBe(firstRevision);
    expect(page2.out.items[0]?.documentId).not.toBe(documentId);
    await callOk(conn.client, 'pvf_annotation_get', { documentId, rulesRevision: firstRevision }, PvfAnnotationGetOutputSchema);

    const second = await buildSnapshot(snapshots, [BUILTIN_LAYER, await writeExtraLayer(path.join(tmp.dir, 'extra'))]);
    const recovered = await eventually(async () => {
      const out = await info();
      return out.rulesRevision === second ? out : undefined;
    }, 'the good snapshot');
    expect(recovered.rules).toEqual({ status: 'ok', lastReloadError: null });

    expect((await callError(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 2, cursor })).code).toBe('STALE_RULES');
    expect((await callError(conn.client, 'pvf_annotation_get', { documentId, rulesRevision: firstRevision })).code).toBe('STALE_RULES');
  });

  it('clears a failure when current points back at the active snapshot', async () => {
    await start(100);
    await writeCorruptSnapshot();
    await eventually(async () => ((await info()).rules.status === 'reload_failed' ? true : undefined), 'the reload to fail');
    await setCurrentRevision(snapshots, firstRevision);
    const out = await eventually(async () => {
      const o = await info();
      return o.rules.status === 'ok' ? o : undefined;
    }, 'the failure to clear');
    expect(out.rulesRevision).toBe(firstRevision);
  });

  it('gives a request one bundle for its whole duration', async () => {
    await start(60_000);
    const during = holder.current();
    const next = await loadCurrentBundle(snapshots);
    holder.activate(next);
    expect(during.bundle).not.toBe(next);
    expect(holder.current().bundle).toBe(next);
    expect(Object.isFrozen(during)).toBe(true);
  });
});
