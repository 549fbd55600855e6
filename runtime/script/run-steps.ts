/**
 * Work written as a generator of steps (so a server can yield between them, workspace/run-in-slices.ts)
 * run to the end in one call, for callers that have nothing else to serve meanwhile.
 */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
