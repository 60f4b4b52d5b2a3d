/**
 * The fields of `patch` whose value differs from `current`, or undefined when
 * nothing would change. A write that changes nothing must not touch
 * `updated_at`, so every PATCH goes through this.
 */
export function changedFields<T extends object>(current: T, patch: Partial<T>): Partial<T> | undefined {
  const changes: Partial<T> = {};
  let changed = false;
  for (const [field, value] of Object.entries(patch) as [keyof T, T[keyof T]][]) {
    if (value === undefined || current[field] === value) continue;
    changes[field] = value;
    changed = true;
  }
  return changed ? changes : undefined;
}
