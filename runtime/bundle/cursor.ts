/**
 * Opaque page cursors. A cursor names the tool, the snapshot revision and a hash of everything the
 * page depends on (normalised filters, sort, version context, workspace...), plus a position, and is
 * signed with a keyed MAC (HMAC-SHA-256): any altered character, or a cursor signed with another key,
 * fails as INVALID_CURSOR; an older snapshot as STALE_RULES.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import { PvfdocError } from '../errors.js';

/**
 * The secret cursors are signed with. A server makes one per process (runtime/mcp/cursor-key.ts), or
 * takes its operator's so that replicas behind one address accept each other's cursors; the CLI and the
 * site, where a forged cursor gains nothing, use LOCAL_CURSOR_KEY.
 */
export interface CursorKey {
  readonly secret: Uint8Array;
}

/** The key of local, single-user tools (CLI, the static site's search). */
const LOCAL_CURSOR_KEY: CursorKey = Object.freeze({ secret: new TextEncoder().encode('pvfdoc local cursors') });

interface CursorState {
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

export function encodeCursor(state: CursorState, key: CursorKey = LOCAL_CURSOR_KEY): string {
  const payload = Buffer.from(canonicalJson([state.tool, state.rulesRevision, state.binding, state.offset]), 'utf8').toString('base64url');
  return `${PREFIX}${payload}.${mac(key, payload)}`;
}

/** Decodes and checks a cursor against the request it is used with. */
export function decodeCursor(cursor: string, expected: { tool: string; rulesRevision: string; binding: string }, key: CursorKey = LOCAL_CURSOR_KEY): number {
  const state = readCursor(cursor, key);
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
export function readCursor(cursor: string, key: CursorKey = LOCAL_CURSOR_KEY): CursorState {
  if (!cursor.startsWith(PREFIX)) throw invalidCursor('it was not issued by this server');
  const body = cursor.slice(PREFIX.length);
  const dot = body.lastIndexOf('.');
  const payload = body.slice(0, dot);
  if (dot < 0 || body.slice(dot + 1) !== mac(key, payload)) throw invalidCursor('it was altered, or issued by another server (or before a restart)');
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

/** An offset past the end of what the request has: a cursor of this key, but not of this result. */
export function checkOffset(offset: number, total: number): number {
  if (offset > total) throw invalidCursor(`its position ${offset} is past the end of the ${total} results`);
  return offset;
}

/**
 * HMAC-SHA-256 of the payload, 128 bits in hex. Written on createHash alone so that the browser build
 * of the search (site/src/browser/shims/node-crypto.ts) runs the same code.
 */
function mac(key: CursorKey, payload: string): string {
  const block = 64;
  let secret = key.secret;
  if (secret.length > block) secret = hexBytes(createHash('sha256').update(secret).digest('hex'));
  const inner = new Uint8Array(block);
  const outer = new Uint8Array(block);
  for (let i = 0; i < block; i++) {
    const k = secret[i] ?? 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  const innerDigest = hexBytes(createHash('sha256').update(inner).update(`pvfdoc-cursor\u0000${payload}`).digest('hex'));
  return createHash('sha256').update(outer).update(innerDigest).digest('hex').slice(0, 32);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
