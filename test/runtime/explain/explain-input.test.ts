/**
 * Explain arguments are checked once, where the request comes in: the MCP SDK checks a tool call
 * against ExplainInputSchema, and parseExplainInput does the same for the CLI with pvfdoc's error.
 */
import { describe, expect, it } from 'vitest';
import { PvfdocError } from '../../../runtime/errors.js';
import { parseExplainInput } from '../../../runtime/explain/explain-schema.js';

describe('parseExplainInput', () => {
  const base = { workspaceId: 'main', expectedRevision: 0, filePath: 'a.equ' };

  it('returns the parsed arguments', () => {
    expect(parseExplainInput({ ...base, limit: 5 })).toEqual({ ...base, limit: 5 });
  });

  it('refuses arguments that do not fit the schema as INVALID_ARGUMENT, each issue at its path', () => {
    let caught: unknown;
    try {
      parseExplainInput({ ...base, limit: 0, filePath: '' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PvfdocError);
    expect(caught).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'invalid explain arguments: $.filePath: Too small: expected string to have >=1 characters; $.limit: Too small: expected number to be >=1',
    });
  });
});
