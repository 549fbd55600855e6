/**
 * The lines of a file cut where annotations start and end. Explain ranges are 0-based, end-exclusive
 * UTF-16 offsets into the canonical text read_file returns ("\n" line ends), which is also how
 * JavaScript indexes strings, so no conversion is needed. Where ranges nest, each piece belongs to the
 * innermost (shortest) range covering it, so a token inside a longer span stays clickable.
 */

export interface TextRange {
  start: number;
  end: number;
}

export interface Segment {
  text: string;
  /** Index into the annotations passed in, or null for plain text. */
  annotation: number | null;
}

export interface CutLine {
  /** 1-based line number in the whole file. */
  number: number;
  segments: Segment[];
}

export interface FileWindow {
  /** Lines startLine..endLine of the file, each with its "\n" (the last line of the file has none). */
  text: string;
  /** 0-based UTF-16 offset of text[0] in the whole file. */
  startOffset: number;
  startLine: number;
  endLine: number;
}

/** Index of the last element of a sorted array that is <= value (0 when none is). */
function lastAtOrBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((sorted[mid] as number) <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}

export function cutLines(window: FileWindow, ranges: readonly TextRange[]): { lines: CutLine[]; shown: Set<number> } {
  const lineCount = Math.max(0, window.endLine - window.startLine + 1);
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; i < lineCount; i++) {
    const newline = window.text.indexOf('\n', at);
    const end = newline === -1 ? window.text.length : newline;
    starts.push(at);
    ends.push(end);
    at = newline === -1 ? window.text.length : newline + 1;
  }

  const perLine: { start: number; end: number; index: number; length: number }[][] = starts.map(() => []);
  const shown = new Set<number>();
  ranges.forEach((range, index) => {
    const start = range.start - window.startOffset;
    const end = range.end - window.startOffset;
    if (end <= start || lineCount === 0 || end <= 0 || start >= window.text.length) return;
    const first = lastAtOrBelow(starts, Math.max(0, start));
    const last = lastAtOrBelow(starts, Math.max(0, end - 1));
    for (let line = first; line <= last; line++) {
      const piece = { start: Math.max(start, starts[line] as number), end: Math.min(end, ends[line] as number), index, length: end - start };
      if (piece.end > piece.start) {
        (perLine[line] as (typeof piece)[]).push(piece);
        shown.add(index);
      }
    }
  });

  const lines = starts.map((lineStart, line): CutLine => {
    const lineEnd = ends[line] as number;
    const pieces = perLine[line] as { start: number; end: number; index: number; length: number }[];
    const cuts = new Set<number>([lineStart, lineEnd]);
    for (const p of pieces) cuts.add(p.start).add(p.end);
    const points = [...cuts].sort((a, b) => a - b);
    const segments: Segment[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const from = points[i] as number;
      const to = points[i + 1] as number;
      let best: (typeof pieces)[number] | null = null;
      for (const p of pieces) if (p.start <= from && p.end >= to && (best === null || p.length < best.length)) best = p;
      const annotation = best === null ? null : best.index;
      const text = window.text.slice(from, to);
      const previous = segments[segments.length - 1];
      if (previous && previous.annotation === annotation) previous.text += text;
      else segments.push({ text, annotation });
    }
    return { number: window.startLine + line, segments };
  });
  return { lines, shown };
}
