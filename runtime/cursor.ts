/**
 * Opaque page cursors. A cursor names the tool, the snapshot revision and a hash of everything the
 * page depends on (normalised filters, sort, version context, workspace...), plus a position. It is
 * checked byte for byte: any altered character fails as INVALID_CURSOR, an older snapshot as STALE_RULES.
 */
import { canonicalJson, sha256Hex } from './bundle/canonical-json.js';
import { PvfdocError } from './errors.js';

export interface CursorState {
  /** Which tool's pages this cursor continues. */
  tool: string;
  rulesRevision: string;
  /** Hash of the normalised request it belongs to. */
  binding: string;
  offset: number;
}

const PREFIX = 'c1.';

export function bindingHash(request: unknown): string {
  return sha256Hex(canonicalJson(request)).slice(0, 24);
}

export function encodeCursor(state: CursorState): string {
  const payload = Buffer.from(canonicalJson([state.tool, state.rulesRevision, state.binding, state.offset]), 'utf8').toString('base64url');
  return `${PREFIX}${payload}.${checksum(payload)}`;
}

/** Decodes and checks a cursor against the request it is used with. */
export function decodeCursor(cursor: string, expected: { tool: string; rulesRevision: string; binding: string }): number {
  const state = readCursor(cursor);
  if (state.tool !== expected.tool) throw invalidCursor(`it belongs to ${state.tool}, not ${expected.tool}`);
  if (state.rulesRevision !== expected.rulesRevision) throw staleRulesCursor(state.rulesRevision, expected.rulesRevision);
  if (state.binding !== expected.binding) throw invalidCursor('it belongs to a request with other filters or arguments');
  return state.offset;
}

/**
 * The fields of a cursor issued by this server, after the tamper checks but before any comparison with
 * the request: for tools that must tell several kinds of mismatch apart (explain reports a cursor of an
 * older workspace revision as STALE_WORKSPACE, not INVALID_CURSOR).
 */
export function readCursor(cursor: string): CursorState {
  if (!cursor.startsWith(PREFIX)) throw invalidCursor('it was not issued by this server');
  const body = cursor.slice(PREFIX.length);
  const dot = body.lastIndexOf('.');
  const payload = body.slice(0, dot);
  if (dot < 0 || body.slice(dot + 1) !== checksum(payload)) throw invalidCursor('it was altered');
  let parsed: unknown;
  try {
    const bytes = Buffer.from(payload, 'base64url');
    // base64url decoding ignores stray bits in the last character; re-encode to catch that tamper too.
    if (bytes.toString('base64url') !== payload) throw new Error('non-canonical');
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalidCursor('it was altered');
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw invalidCursor('it was altered');
  const [tool, rulesRevision, binding, offset] = parsed as unknown[];
  if (typeof tool !== 'string' || typeof rulesRevision !== 'string' || typeof binding !== 'string' || !Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw invalidCursor('it was altered');
  }
  return { tool, rulesRevision, binding, offset: offset as number };
}

/** INVALID_CURSOR with the standard hint. */
export function invalidCursor(why: string): PvfdocError {
  return new PvfdocError('INVALID_CURSOR', `the cursor is not valid for this request: ${why}`, {
    hint: 'Repeat the request without a cursor to start from the first page, and pass nextCursor unchanged with the same arguments.',
  });
}

/** STALE_RULES for a cursor of another snapshot. */
export function staleRulesCursor(cursorRulesRevision: string, activeRulesRevision: string): PvfdocError {
  return new PvfdocError('STALE_RULES', `the cursor belongs to rules snapshot ${cursorRulesRevision}; the active snapshot is ${activeRulesRevision}`, {
    hint: 'The rules changed: repeat the request without a cursor (and search again for documentIds).',
    data: { rulesRevision: activeRulesRevision, cursorRulesRevision },
  });
}

function checksum(payload: string): string {
  return sha256Hex(`pvfdoc-cursor\u0000${payload}`).slice(0, 16);
}
