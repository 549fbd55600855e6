/**
 * How an explain annotation's position and value read in one line of text (the MCP tool's text
 * content, the explain prompt, the CLI table, the MCP App): one place, so they all say the same.
 */
import type { ExplainOutputAnnotation } from './explain-schema.js';

/** `.3`, or `.3-5` for a range of tokens (its value is null: the tokens are in the text at its range); '' on a tag. */
export function tokenSpanText(a: Pick<ExplainOutputAnnotation, 'tokenIndex' | 'lastTokenIndex'>): string {
  if (a.tokenIndex === null) return '';
  return a.lastTokenIndex === undefined ? `.${a.tokenIndex}` : `.${a.tokenIndex}-${a.lastTokenIndex}`;
}

/** The value, marked `(float)` for a float: its canonical value can read as an integer (`1.0` is `1`). */
export function valueText(a: Pick<ExplainOutputAnnotation, 'value' | 'valueType'>, shown: (value: string) => string = (value) => value): string | null {
  if (a.value === null) return null;
  return a.valueType === 'float' ? `${shown(a.value)} (float)` : shown(a.value);
}
