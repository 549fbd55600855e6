import { IntColumn } from './int-column.js';
import { runSteps } from './run-steps.js';

/**
 * The canonical text of a script file (ARCHITECTURE §5): every CRLF and every lone CR becomes `\n`.
 * `read_file`, `textRevision` and every explain offset refer to this text.
 *
 * pvfine counts offsets as CodeMirror does (rule-format §3.3): UTF-16 code units where a CRLF counts as
 * one unit and a lone CR as one. Once both are a single `\n`, plain string indexes of the normalised
 * text are exactly those offsets, so no later stage needs a CRLF special case.
 */
export function normalizeText(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** 1-based line and column; columns count UTF-16 code units. */
interface TextPosition {
  line: number;
  column: number;
}

export interface LineIndex {
  /** Lines of the text: one more than its `\n` count (an empty text has one empty line). */
  readonly lineCount: number;
  /**
   * Position of a 0-based UTF-16 offset, clamped to [0, text length]. The offset of a line's `\n` is
   * the column after its last character, so an exclusive end offset gives the column after the span.
   */
  offsetToPosition(offset: number): TextPosition;
  /** Offset of a position, clamping the line to the text and the column to the line (end of line included). */
  positionToOffset(position: TextPosition): number;
}

/** Line lookups for a normalised text (only `\n` ends a line). O(log lines) per lookup. */
export function createLineIndex(text: string): LineIndex {
  return runSteps(lineIndexSteps(text));
}

/** Text scanned between two yields of lineIndexSteps. */
const LINE_STEP_UNITS = 2 * 1024 * 1024;

/** The same index, yielding every LINE_STEP_UNITS of text, so a caller can serve other requests meanwhile. */
export function* lineIndexSteps(text: string): Generator<void, LineIndex> {
  // Four bytes a line: the index of a 31 MiB file is kept with its explanation.
  const starts = new IntColumn(Math.max(16, text.length >> 5));
  starts.push(0);
  let pause = LINE_STEP_UNITS;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
    if (i >= pause) {
      pause = i + LINE_STEP_UNITS;
      yield;
    }
  }
  const lineStarts = starts.finish();
  const lineCount = lineStarts.length;
  const startOf = (line: number): number => lineStarts[line] ?? text.length;
  // Column limit of a 0-based line: its length plus one (the position after its last character).
  const endOf = (line: number): number => (line + 1 < lineCount ? startOf(line + 1) - 1 : text.length);

  return {
    lineCount,
    offsetToPosition(offset) {
      const o = clamp(Math.trunc(offset), 0, text.length);
      let low = 0;
      let high = lineCount - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (startOf(mid) <= o) low = mid;
        else high = mid - 1;
      }
      return { line: low + 1, column: o - startOf(low) + 1 };
    },
    positionToOffset({ line, column }) {
      const l = clamp(Math.trunc(line), 1, lineCount) - 1;
      const start = startOf(l);
      return start + clamp(Math.trunc(column), 1, endOf(l) - start + 1) - 1;
    },
  };
}

function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(Math.max(value, min), max);
}
