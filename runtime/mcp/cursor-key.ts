import { randomBytes } from 'node:crypto';
import type { CursorKey } from '../bundle/cursor.js';

/** Environment variable that sets the cursor secret, so that replicas behind one address agree. */
const CURSOR_SECRET_ENV = 'PVFDOC_CURSOR_SECRET';

/** A server's cursor key: the operator's secret when given, else 32 random bytes for this process. */
export function createCursorKey(secret: string | undefined = process.env[CURSOR_SECRET_ENV]): CursorKey {
  return { secret: secret !== undefined && secret !== '' ? new TextEncoder().encode(secret) : randomBytes(32) };
}
