import { SUMMARY_MAX_CODE_POINTS } from './constants.js';

/** Cut text to the summary limit in code points, so a surrogate pair is never split. */
export function toSummary(text: string, max = SUMMARY_MAX_CODE_POINTS): { summary: string; truncated: boolean } {
  const trimmed = text.trim();
  const points = Array.from(trimmed);
  if (points.length <= max) return { summary: trimmed, truncated: false };
  return { summary: points.slice(0, max).join(''), truncated: true };
}
