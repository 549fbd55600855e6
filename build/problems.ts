/** A problem found in a rule layer, with everything needed to find and fix it. */
export interface Problem {
  severity: 'error' | 'warning';
  /** Layer name, or the folder as given when the layer has no usable name yet. */
  layer: string;
  /** File inside the layer, e.g. `annotations.json`; "" for the folder itself. */
  file: string;
  /** JSON path such as `$.rules[3].target.index`; "" when the problem is not inside a file. */
  path: string;
  message: string;
}

export function formatProblem(problem: Problem): string {
  const where = [problem.layer, problem.file].filter(Boolean).join('/');
  const at = problem.path ? ` ${problem.path}` : '';
  return `${problem.severity}: ${where}${at}: ${problem.message}`;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
