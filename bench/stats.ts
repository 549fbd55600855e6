/** Small helpers for the benchmark: timing, percentiles, formatting, a plain-text table. */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';

export function now(): number {
  return performance.now();
}

export async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = now();
  const value = await fn();
  return { ms: now() - start, value };
}

export function timeSync<T>(fn: () => T): { ms: number; value: T } {
  const start = now();
  const value = fn();
  return { ms: now() - start, value };
}

/**
 * Time a thread (by default this process's main thread) has spent on a CPU and waiting for one, in ms,
 * from Linux's `/proc/<pid>/task/<tid>/schedstat` (nanoseconds); null elsewhere. On a busy machine a
 * request's wall time is mostly the wait: the time on the CPU is the work it did.
 */
export function threadCpu(pid: number = process.pid, tid: number = pid): { runMs: number; waitMs: number } | null {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    if (run === undefined || wait === undefined || !Number.isFinite(run) || !Number.isFinite(wait)) return null;
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}

/** What a thread did between two threadCpu readings (null when either is). */
export function cpuBetween(before: ReturnType<typeof threadCpu>, after: ReturnType<typeof threadCpu>): { runMs: number; waitMs: number } | null {
  if (before === null || after === null) return null;
  return { runMs: after.runMs - before.runMs, waitMs: after.waitMs - before.waitMs };
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function geometricMean(xs: readonly number[]): number {
  const finite = xs.filter((x) => Number.isFinite(x) && x > 0);
  if (finite.length === 0) return Number.NaN;
  return Math.exp(finite.reduce((a, x) => a + Math.log(x), 0) / finite.length);
}

/**
 * A `gc()` without `--expose-gc` on the command line (`npm run bench` runs plain tsx). Used only to
 * start phases from a collected heap and to measure retained heap; never inside a timed region.
 */
export function exposeGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  if (typeof gc !== 'function') return () => undefined;
  return () => {
    (gc as () => void)();
    (gc as () => void)();
  };
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

export function fmtBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export function fmtRatio(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (x >= 100) return `${x.toFixed(0)}×`;
  if (x >= 10) return `${x.toFixed(1)}×`;
  return `${x.toFixed(2)}×`;
}

/** Display width: CJK and full-width characters take two columns. */
function width(text: string): number {
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    w += (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) ? 2 : 1;
  }
  return w;
}

/** A plain-text table; columns whose header starts with ">" are right-aligned. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const right = headers.map((h) => h.startsWith('>'));
  const names = headers.map((h) => (h.startsWith('>') ? h.slice(1) : h));
  const widths = names.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - width(c)));
        return right[i] ? pad + c : c + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(names), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
