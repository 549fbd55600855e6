/**
 * Failures of prompts/get. A prompt has no result that can say "isError" (unlike a tool), so an
 * expected failure is a JSON-RPC error: the same text a tool error has (`CODE: message hint`) as its
 * message, and the same fields a tool error has under `_meta["pvfdoc/error"]` as its `data`.
 *
 * The JSON-RPC code says whose fault it is: -32602 (invalid params) when other arguments would work,
 * -32603 (internal error) when no argument can help (the server cannot read its files or rules). Any
 * other exception is a bug: logged with its stack, answered with the tools' generic text.
 */
import { ErrorCode as JsonRpcErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { isPvfdocError, type ErrorCode } from '../../errors.js';
import type { Logger } from '../log.js';
import { INTERNAL_ERROR_TEXT } from '../tool-error.js';

/** Codes no argument of a prompt can fix: the server's own files, archive or rules. */
const SERVER_SIDE_CODES: ReadonlySet<ErrorCode> = new Set(['IO_ERROR', 'INVALID_ARCHIVE', 'INVALID_BUNDLE', 'INVALID_RULES']);

/**
 * What the SDK sends as the JSON-RPC error: it copies `code`, `message` and `data` of whatever the
 * handler throws. Not an McpError, whose message gets an "MCP error <code>: " prefix on the wire.
 */
export class PromptRequestError extends Error {
  override readonly name = 'PromptRequestError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function toPromptError(error: unknown, log: Logger): PromptRequestError {
  if (isPvfdocError(error)) {
    const meta = { code: error.code, message: error.message, hint: error.hint ?? null, data: error.data ?? null };
    const code = SERVER_SIDE_CODES.has(error.code) ? JsonRpcErrorCode.InternalError : JsonRpcErrorCode.InvalidParams;
    return new PromptRequestError(code, `${meta.code}: ${meta.message}${meta.hint ? ` ${meta.hint}` : ''}`, meta);
  }
  log('error', 'mcp', `unexpected failure in a prompt (a bug):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new PromptRequestError(JsonRpcErrorCode.InternalError, INTERNAL_ERROR_TEXT);
}

/** Wraps a prompt body so every failure goes through toPromptError (no try/catch in the prompts). */
export function withPromptErrors<A>(log: Logger, body: (args: A) => Promise<GetPromptResult>): (args: A) => Promise<GetPromptResult> {
  return async (args) => {
    try {
      return await body(args);
    } catch (error) {
      throw toPromptError(error, log);
    }
  };
}
