import type { KeyVerifier } from '../../infrastructure/api-keys/api-key.service.js';

/**
 * Tells waiting requests (long polls) that their key was revoked while they
 * wait: a revocation must end them as it refuses the next request, rather
 * than let a poll opened before it answer what was written after it.
 *
 * Every `intervalMs` while any request waits, each waiting key is verified
 * again. That costs nothing while no key changed: the verifier answers from
 * memory as long as the keys' generation (src/db/change-counter.ts; SQLite's
 * data_version, PostgreSQL's NOTIFY) has not moved, and looks the key up
 * once when it has. A key that no longer verifies ends its requests' waits.
 * A lookup that fails (a database out of reach) is tried again at the next
 * interval.
 */
export interface KeyWatch {
  /** Calls `onRevoked` once if `secret` stops verifying; returns the function that stops watching. */
  watch(secret: string, onRevoked: () => void): () => void;
  close(): void;
}

export function watchKeys(keys: KeyVerifier, intervalMs: number): KeyWatch {
  const watchers = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const verifyAll = async () => {
    timer = undefined;
    await Promise.all(
      [...watchers.keys()].map(async (secret) => {
        try {
          if ((await keys.principalFor(secret)) !== undefined) return;
        } catch {
          return; // Not known either way: the next interval asks again.
        }
        const revoked = watchers.get(secret);
        watchers.delete(secret);
        for (const onRevoked of revoked ?? []) onRevoked();
      }),
    );
    schedule();
  };
  const schedule = () => {
    if (!closed && watchers.size > 0 && timer === undefined)
      timer = setTimeout(verifyAll, intervalMs).unref();
  };

  return {
    watch(secret, onRevoked) {
      const set = watchers.get(secret) ?? new Set<() => void>();
      watchers.set(secret, set);
      set.add(onRevoked);
      schedule();
      return () => {
        const current = watchers.get(secret);
        current?.delete(onRevoked);
        if (current?.size === 0) watchers.delete(secret);
      };
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watchers.clear();
    },
  };
}
