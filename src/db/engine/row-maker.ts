/** Makes a row object from a row's values, in the order of its columns. */
export type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * Rows are read as arrays of values and turned into objects by a function
 * made once per statement from its column names: an object literal, whose
 * shape V8 knows in advance. The drivers (better-sqlite3, pg) build row
 * objects one property at a time, which cost much of a page of members and
 * part of a point read (docs/performance-log.md). The names are quoted as
 * JSON strings. A column named `__proto__` would set the prototype in a
 * literal, and two columns of one name would not be one property as the
 * drivers make them: such a statement keeps the driver's objects (undefined).
 */
export function rowMakerOf(names: readonly string[]): RowMaker | undefined {
  if (names.includes('__proto__') || new Set(names).size !== names.length) return undefined;
  const fields = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function('values', `return { ${fields.join(', ')} };`) as RowMaker;
}
