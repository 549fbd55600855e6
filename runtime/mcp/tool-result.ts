import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from './log.js';
import { toToolError } from './tool-error.js';

/** A successful result: the structured output and a short text for people and text-only clients. */
export function toolResult(structured: object, text: string): CallToolResult {
  return { structuredContent: structured as Record<string, unknown>, content: [{ type: 'text', text }] };
}

/** Wraps a tool body so every failure goes through toToolError (no try/catch in the tools). */
export function withToolErrors<A>(log: Logger, body: (args: A) => CallToolResult | Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await body(args);
    } catch (error) {
      return toToolError(error, log);
    }
  };
}

/** First `max` lines, then how many were left out. */
export function listLines(lines: readonly string[], max: number): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `… ${lines.length - max} more in structuredContent`];
}
