import { formatProblem, type Problem } from '../build/problems.js';

export function printProblems(problems: readonly Problem[]): void {
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (problems.length > 0) process.stderr.write(`${errors} error(s), ${warnings} warning(s)\n`);
}
