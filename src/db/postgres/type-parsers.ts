import { loadPg } from './load-pg.js';

/**
 * Sessions run in UTC with ISO dates, whatever the server or database sets,
 * so timestamps and dates arrive in the one form toIsoTimestamp reads fast
 * (DateStyle 'SQL, DMY' would send `03/02/2000`).
 */
export const UTC_SESSION = '-c TimeZone=UTC -c DateStyle=ISO,YMD';
const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const DATE_OID = 1082;
const INT8_OID = 20;

/** How PostgreSQL writes a timestamptz in a UTC session: `2026-11-22 04:00:55.158+00`. */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** The same text as `new Date(value).toISOString()`, without parsing a date (3 per member row). */
function toIsoTimestamp(value: string): string {
  const match = UTC_TIMESTAMP.exec(value);
  if (match === null) return new Date(value).toISOString();
  return `${match[1]}T${match[2]}.${`${match[3] ?? ''}000`.slice(0, 3)}Z`;
}
const asText = (value: string) => value;
const toNumber = (value: string) => Number(value);

type TypeParser = (value: string) => unknown;
const typeParsers = new Map<number, TypeParser>();

/**
 * Make PostgreSQL rows look like SQLite rows: ISO timestamps, date strings,
 * numbers. pg asks for a parser for every column of every result, so each
 * is looked up once. Give it, with UTC_SESSION, to every pool and client.
 */
export const pgTypes = {
  getTypeParser(oid: number): TypeParser {
    let parser = typeParsers.get(oid);
    if (parser === undefined) {
      parser = parserFor(oid);
      typeParsers.set(oid, parser);
    }
    return parser;
  },
};

function parserFor(oid: number): TypeParser {
  switch (oid) {
    case TIMESTAMPTZ_OID:
    case TIMESTAMP_OID:
      return toIsoTimestamp;
    case DATE_OID:
      return asText;
    case INT8_OID:
      return toNumber;
    default:
      return loadPg().types.getTypeParser(oid, 'text');
  }
}
