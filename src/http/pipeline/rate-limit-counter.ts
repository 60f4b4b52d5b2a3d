/** Counts a request of `key` in `window` and gives the count so far. */
export type Counter = (key: string, window: number) => number | Promise<number>;

/** Counts of the current window only: memory holds one number per key that asked in it. */
export function localCounter(): Counter {
  let current = Number.NaN;
  let counts = new Map<string, number>();
  return (key, window) => {
    if (window !== current) {
      current = window;
      counts = new Map();
    }
    const counted = (counts.get(key) ?? 0) + 1;
    counts.set(key, counted);
    return counted;
  };
}
