import { Member, MemberUpdate } from '../member.schemas.js';

/** The columns of an export, and of an import's header: the member's fields, in its representation's order. */
export const MEMBER_CSV_COLUMNS = Object.keys(Member.properties) as (keyof Member)[];

/** The columns an import writes: those a PATCH may change. */
const WRITABLE = new Set(Object.keys(MemberUpdate.properties));
/** Columns the service sets (`id`, `created_at`, …): an import accepts them, so that an export reads back, and ignores them. */
const READ_ONLY = new Set<string>(MEMBER_CSV_COLUMNS.filter((column) => !WRITABLE.has(column)));

const schemaOf = (column: string) =>
  (MemberUpdate.properties as unknown as Record<string, Record<string, unknown>>)[column];
/** Nullable() writes `type: [type, 'null']`. */
const typesOf = (column: string): unknown[] => [schemaOf(column).type].flat();
const isNullable = (column: string) => typesOf(column).includes('null');
const isInteger = (column: string) => typesOf(column).includes('integer');
/** Trimmed as POST and PATCH trim them. */
const TRIMMED = new Set(['first_name', 'last_name']);

/**
 * A header's problem, or undefined: every column must be a member field, once.
 * The detail names the columns an import knows.
 */
export function headerProblem(header: string[]): string | undefined {
  const seen = new Set<string>();
  for (const column of header) {
    if (seen.has(column)) return `column "${column}" appears twice`;
    seen.add(column);
    if (!WRITABLE.has(column) && !READ_ONLY.has(column)) {
      return `unknown column "${column}"; the columns are the member fields (${MEMBER_CSV_COLUMNS.join(', ')})`;
    }
  }
  if (!seen.has('first_name') && !seen.has('external_id') && !seen.has('email')) {
    return 'the header names no first_name, email or external_id column';
  }
  return undefined;
}

/**
 * Where a spreadsheet may start a cell within a value: at its start, and
 * after each semicolon, on which a spreadsheet of a semicolon locale
 * (German, French, Dutch Excel) splits a line whatever the file's separator.
 */
const SEGMENT_SEPARATOR = ';';
/**
 * A segment an export writes with a leading `'`: one a spreadsheet would run
 * as a formula (OWASP's CSV injection rule), and one that starts with `'`
 * itself, which an import would otherwise take off.
 */
const ESCAPED_START = /^[=+\-@\t\r']/;

/** What an export writes for a value: each segment a spreadsheet would run as a formula gets a leading `'`. */
export function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  const segments = String(value).split(SEGMENT_SEPARATOR);
  return segments.map((segment) => (ESCAPED_START.test(segment) ? `'${segment}` : segment)).join(';');
}

/** The value an export's cell stands for: the `'` cellOf put before a segment taken off again. */
function valueOfCell(cell: string): string {
  const segments = cell.split(SEGMENT_SEPARATOR);
  const value = (segment: string) =>
    segment.startsWith("'") && ESCAPED_START.test(segment.slice(1)) ? segment.slice(1) : segment;
  return segments.map(value).join(';');
}

/**
 * A row of an import as the body of a create or a PATCH, typed as the JSON
 * body would be: an empty cell is no value (the default on a create, cleared
 * on an update when the field may be null, left as it is when not); a
 * number column's digits are a number; an export's `'` before a formula
 * character or a `'`, at the start or after a semicolon, is taken off
 * again. Read-only columns are left out.
 */
export function fieldsOfRow(record: Record<string, string>, forUpdate: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(record)) {
    if (!WRITABLE.has(column)) continue;
    let text = valueOfCell(cell);
    if (TRIMMED.has(column)) text = text.trim();
    if (text === '') {
      if (forUpdate && isNullable(column)) fields[column] = null;
      continue;
    }
    fields[column] = isInteger(column) && /^-?\d{1,15}$/.test(text) ? Number(text) : text;
  }
  return fields;
}
