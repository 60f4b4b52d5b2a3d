import { Readable } from 'node:stream';
import type { Db } from '../../../db/database.js';
import type { BulkGovernor } from '../../../jobs/bulk-governor.js';
import type { MemberFilter } from '../member-list.repository.js';
import { listMembersOfFacility } from '../member-read.service.js';
import { cellOf, MEMBER_CSV_COLUMNS } from './member-csv.columns.js';

/** Members read per query: about 60 kB of CSV, a page's memory whatever the facility's size. */
const EXPORT_PAGE_ROWS = 200;
/**
 * Bytes of CSV an export holds ahead of its client. A stream reads its next
 * page only once its client has taken what it holds: one that stops reading
 * costs one page and this, not the facility.
 */
export const EXPORT_BUFFER_BYTES = 64 * 1024;

/**
 * A value is quoted when it holds a comma, a quote or a line break, as CSV
 * asks, or a semicolon, on which a spreadsheet of a semicolon locale splits
 * the line (the part after it could start a formula); a quote is doubled.
 * Written here rather than by csv-stringify, which took most of an export
 * page's time (docs/performance-log.md, 2026-11-28);
 * member-export-lines.test.ts checks that csv-stringify writes the same text.
 */
const NEEDS_QUOTES = /[",;\r\n]/;

/** A CSV field of a value. */
const csvField = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** CSV lines (LF-terminated) of rows of values. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) text += i === 0 ? csvField(row[i]) : `,${csvField(row[i])}`;
    text += '\n';
  }
  return text;
}

/**
 * The facility's members as CSV text, page by page in id order (keyset, so
 * a million members cost one page of memory at a time): a BOM, so that
 * spreadsheet programs read UTF-8, a header row of the member fields, then
 * one row a member, every value a spreadsheet would run as a formula
 * escaped (cellOf). Filters as in the member list. Each page is a unit of
 * bulk work (the governor may hold it back while other requests arrive);
 * between pages nothing is held: no transaction, no connection.
 */
export async function* exportMembersCsv(
  db: Db,
  facilityId: number,
  filter: Omit<MemberFilter, 'afterId' | 'limit' | 'maxBytes'>,
  maxBytes: number,
  governor: BulkGovernor,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLines([MEMBER_CSV_COLUMNS])}`;
  let afterId = 0;
  for (;;) {
    await governor.turn();
    const started = performance.now();
    const page = { afterId, rows: EXPORT_PAGE_ROWS, maxBytes };
    const members = await listMembersOfFacility(db, facilityId, filter, page);
    if (members.length === 0) return;
    const rows = members.map((member) => MEMBER_CSV_COLUMNS.map((column) => cellOf(member[column])));
    const text = csvLines(rows);
    afterId = members[members.length - 1].id;
    governor.spent(performance.now() - started);
    yield text;
  }
}

/** The export as a byte stream that reads ahead of its client by EXPORT_BUFFER_BYTES at most. */
export function exportStream(rows: AsyncGenerator<string>): Readable {
  // Not in object mode, where a stream would read 16 pages ahead of a client that does not read.
  return Readable.from(rows, { objectMode: false, highWaterMark: EXPORT_BUFFER_BYTES });
}
