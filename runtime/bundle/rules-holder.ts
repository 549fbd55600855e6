/**
 * The active rules snapshot of a running server. The state is one immutable object replaced as a whole,
 * so a request that took `current()` keeps one bundle for its whole duration while a reload swaps in
 * the next one (ARCHITECTURE §5, hot reload).
 */
import { z } from 'zod';
import type { Bundle } from './load-bundle.js';

/** ok, or reload_failed: a newer snapshot on disk was refused and the previous one is still served. */
export const RulesStatusSchema = z.enum(['ok', 'reload_failed']);
type RulesStatus = z.infer<typeof RulesStatusSchema>;

interface RulesState {
  readonly bundle: Bundle;
  /** `reload_failed` while the newest snapshot on disk could not be activated; the old one keeps serving. */
  readonly status: RulesStatus;
  /** Why the last reload failed; null once a later reload succeeds. */
  readonly lastReloadError: string | null;
}

export interface RulesHolder {
  current(): RulesState;
  /** Serves `bundle` from now on and clears any reload failure. */
  activate(bundle: Bundle): void;
  /** Keeps serving the active bundle and records why the newer one was refused. */
  reportReloadFailure(message: string): void;
  /** Clears a recorded failure without changing the bundle (the pointer went back to the active one). */
  clearReloadFailure(): void;
}

export function createRulesHolder(bundle: Bundle): RulesHolder {
  let state: RulesState = Object.freeze({ bundle, status: 'ok', lastReloadError: null });
  return {
    current: () => state,
    activate(next) {
      state = Object.freeze({ bundle: next, status: 'ok', lastReloadError: null });
    },
    reportReloadFailure(message) {
      state = Object.freeze({ bundle: state.bundle, status: 'reload_failed', lastReloadError: message });
    },
    clearReloadFailure() {
      if (state.status !== 'ok') state = Object.freeze({ bundle: state.bundle, status: 'ok', lastReloadError: null });
    },
  };
}
