/**
 * Hands the one SQLite connection to one holder at a time, in arrival order.
 * `locked` is read synchronously: a caller that finds it free may use the
 * connection at once, without waiting for a turn (better-sqlite3 runs each
 * statement to its end).
 */
export class ConnectionMutex {
  #locked = false;
  readonly #waiting: (() => void)[] = [];

  get locked(): boolean {
    return this.#locked;
  }

  async lock(): Promise<void> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#locked = true;
  }

  /** Passes the connection to the next waiter, if any, without freeing it in between. */
  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}

/** A promise settled from outside: the outcome of a shared COMMIT. */
export interface Outcome {
  settled: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export function openOutcome(): Outcome {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // An outcome whose waiters have all gone may still fail; that is not an unhandled error.
  settled.catch(() => {});
  return { settled, resolve, reject };
}
