/**
 * Node starts V8 with four helper threads whatever the machine. On four cores or fewer their JIT and GC
 * work takes the core the server answers on, and Node reads the pool size only at start (docs/decisions.md,
 * "V8 helper threads"), so `serve` cannot fix it itself; it says once, at start, how to.
 */
export interface ProcessShape {
  /** `os.availableParallelism()`. */
  cores: number;
  /** `process.execArgv`. */
  execArgv: readonly string[];
  /** `process.env.NODE_OPTIONS`. */
  nodeOptions: string | undefined;
}

/** The most cores on which Node's fixed pool of four is worth a word. */
const FEW_CORES = 4;

/** One log line for a server started with Node's fixed helper pool on few cores; null when the pool was sized. */
export function helperPoolAdvice(shape: ProcessShape): string | null {
  if (shape.cores > FEW_CORES) return null;
  const given = [...shape.execArgv, ...(shape.nodeOptions ?? '').split(/\s+/)];
  if (given.some((arg) => /^--v8-pool-size(=|$)/.test(arg))) return null;
  return `${shape.cores} core(s) and Node's default four V8 helper threads: for steadier answer times start the server with NODE_OPTIONS=--v8-pool-size=0 (README, "Machines of four cores or fewer")`;
}
