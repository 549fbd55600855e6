/**
 * Long work in a shared server, as a generator of steps: run them, giving the thread back to other
 * requests (setImmediate) whenever a slice has taken `sliceMs`, so no single request holds it.
 */
import type { WorkspaceText, WorkspaceView } from './workspace.js';

/** Longest stretch of work between two chances for other requests to run. */
export const SLICE_MS = 50;

export async function runInSlices<T>(steps: Generator<void, T>, sliceMs: number = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** Resolves after the requests already waiting have had their turn (setImmediate). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A file's text from a view, in slices where the view reads in steps (a large file is then decoded between other requests). */
export function readTextInSlices(view: WorkspaceView, path: string): Promise<WorkspaceText> {
  return view.readTextSteps ? runInSlices(view.readTextSteps(path)) : Promise.resolve(view.readText(path));
}
