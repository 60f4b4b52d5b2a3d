import { AppError } from '../../core/errors.js';

/** Tracked accounts at most: past it a window's count starts over (an attacker cycling e-mails gains nothing). */
const MAX_TRACKED_ACCOUNTS = 100_000;

/**
 * Failed sign-ins per account (e-mail, ignoring case) in fixed windows, in
 * this process: with several instances each counts its own, so an account
 * takes at most the limit times the instances per window. Together with the
 * per-address limit it makes guessing one person's password slow from many
 * addresses too.
 */
export class AccountFailures {
  #window = Number.NaN;
  #counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** What is counted, in the 429's words. */
    private readonly counted = 'failed sign-ins for this account',
  ) {}

  assertMayTry(email: string, now: Date): void {
    const window = Math.floor(now.getTime() / this.windowMs);
    if (window !== this.#window || (this.#counts.get(email.toLowerCase()) ?? 0) < this.limit) return;
    const retryAfter = Math.ceil(((window + 1) * this.windowMs - now.getTime()) / 1000);
    throw new AppError('rate_limited', `Too many ${this.counted}; retry in ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  add(email: string, now: Date): void {
    const window = Math.floor(now.getTime() / this.windowMs);
    if (window !== this.#window || this.#counts.size >= MAX_TRACKED_ACCOUNTS) {
      this.#window = window;
      this.#counts = new Map();
    }
    const key = email.toLowerCase();
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }
}
