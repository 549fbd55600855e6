import { isPvfdocError, type PvfdocError } from '../../runtime/errors.js';

/** The PvfdocError a call throws (fails the test on success or on another error type). */
export function caught(run: () => unknown): PvfdocError {
  try {
    run();
  } catch (error) {
    if (isPvfdocError(error)) return error;
    throw new Error(`expected a PvfdocError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a PvfdocError, but the call succeeded');
}

/** Same for async calls. */
export async function caughtAsync(run: () => Promise<unknown>): Promise<PvfdocError> {
  try {
    await run();
  } catch (error) {
    if (isPvfdocError(error)) return error;
    throw new Error(`expected a PvfdocError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a PvfdocError, but the call succeeded');
}

/** Whatever a call throws, or null when it returns (for comparing errors, or checking there is none). */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
    return null;
  } catch (error) {
    return error;
  }
}
