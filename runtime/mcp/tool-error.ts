/**
 * The one place where failures become tool results (style §14).
 *
 * A PvfdocError is an expected failure: `isError: true`, the text `CODE: message hint` (plus the data
 * as JSON), and the same fields under `_meta["pvfdoc/error"]`. They are not put in `structuredContent`:
 * the SDK 1.32 Client validates any `structuredContent` against the tool's outputSchema, error results
 * included, and throws instead of returning the error (test/runtime/mcp/tool-error.test.ts pins this).
 *
 * Anything else is a bug: its stack goes to stderr and the caller gets a generic failure without a code,
 * never a code that blames the arguments.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isPvfdocError, type ErrorCode } from '../errors.js';
import { ERROR_META_KEY } from './constants.js';
import { createStderrLogger, type Logger } from './log.js';

interface ToolErrorMeta {
  code: ErrorCode;
  message: string;
  hint: string | null;
  data: Record<string, unknown> | null;
}

export const INTERNAL_ERROR_TEXT =
  'pvfdoc failed unexpectedly (an internal error, logged on the server). It is not caused by the arguments; report it if it happens again.';

export function toToolError(error: unknown, log: Logger = createStderrLogger()): CallToolResult {
  if (isPvfdocError(error)) {
    const meta: ToolErrorMeta = { code: error.code, message: error.message, hint: error.hint ?? null, data: error.data ?? null };
    let text = `${meta.code}: ${meta.message}${meta.hint ? ` ${meta.hint}` : ''}`;
    if (meta.data) text += `\ndata: ${safeJson(meta.data)}`;
    return { isError: true, content: [{ type: 'text', text }], _meta: { [ERROR_META_KEY]: meta } };
  }
  log('error', 'mcp', `unexpected failure in a tool (a bug):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { isError: true, content: [{ type: 'text', text: INTERNAL_ERROR_TEXT }] };
}

/** The error fields of a tool result, or null when it is not a pvfdoc tool error. */
export function toolErrorOf(result: { _meta?: Record<string, unknown> | undefined }): ToolErrorMeta | null {
  const meta = result._meta?.[ERROR_META_KEY];
  return meta !== undefined && meta !== null && typeof meta === 'object' ? (meta as ToolErrorMeta) : null;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '(not serialisable)';
  }
}
