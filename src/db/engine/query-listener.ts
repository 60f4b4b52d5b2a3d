/** Told of every SQL statement a database runs, with its values (tests count and inspect queries). */
export type QueryListener = (sql: string, parameters: readonly unknown[]) => void;
