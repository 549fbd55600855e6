/**
 * Building the text of a filled prompt within its size budget. A prompt is pasted whole into a
 * model's context before the user says anything more, so it is bounded like a tool answer (the explain
 * page budget is 24 KiB): every variable part is cut to what fits, and says where the rest is.
 */
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';

/** The text of all messages of one filled prompt stays within this many bytes of UTF-8. */
export const PROMPT_BUDGET_BYTES = 16 * 1024;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The first lines that fit in `maxBytes` (each counted with its "\n"); when some do not, the last
 * line is `more(omitted)`, and the whole still fits.
 */
export function fitLines(lines: readonly string[], maxBytes: number, more: (omitted: number) => string): string[] {
  const costs = lines.map((line) => utf8Bytes(line) + 1);
  if (costs.reduce((n, c) => n + c, 0) <= maxBytes) return [...lines];
  // Keep lines while they and the note about the rest still fit.
  let used = 0;
  let kept = 0;
  while (kept < lines.length && used + (costs[kept] as number) + utf8Bytes(more(lines.length - kept - 1)) + 1 <= maxBytes) used += costs[kept++] as number;
  const note = more(lines.length - kept);
  return used + utf8Bytes(note) + 1 <= maxBytes ? [...lines.slice(0, kept), note] : lines.slice(0, kept);
}

/** `text` on one line, at most `max` code points (an ellipsis marks a cut). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length <= max ? flat : `${points.slice(0, max - 1).join('')}…`;
}

/** Compact JSON of tool arguments, as an agent would send them. */
export function toolCall(tool: string, args: Record<string, unknown>): string {
  return `${tool} ${JSON.stringify(args)}`;
}

/** A prompt of user messages (the task, then what pvfdoc found), checked against the budget. */
export function promptResult(description: string, texts: readonly string[]): GetPromptResult {
  const total = texts.reduce((n, t) => n + utf8Bytes(t), 0);
  // Every part is cut to its share by construction; passing the budget would be a bug in that arithmetic.
  if (total > PROMPT_BUDGET_BYTES) throw new Error(`filled prompt is ${total} bytes, over its ${PROMPT_BUDGET_BYTES}-byte budget`);
  return { description, messages: texts.map((text) => ({ role: 'user' as const, content: { type: 'text' as const, text } })) };
}
