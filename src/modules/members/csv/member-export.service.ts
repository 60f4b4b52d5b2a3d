import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../../db/database.js';
import type { MemberFilter } from '../member-list.repository.js';
import { listMembersOfFacility } from '../member-read.service.js';
import { cellOf, MEMBER_CSV_COLUMNS } from './member-csv.columns.js';

/** Members read per query: a page's memory, whatever the facility's size. */
const EXPORT_PAGE_ROWS = 500;

/**
 * The facility's members as CSV text, page by page in id order (keyset, so
 * a million members cost one page of memory at a time): a BOM, so that
 * spreadsheet programs read UTF-8, a header row of the member fields, then
 * one row a member, every value a spreadsheet would run as a formula
 * escaped (cellOf). Filters as in the member list.
 */
export async function* exportMembersCsv(
  db: Db,
  facilityId: number,
  filter: Omit<MemberFilter, 'afterId' | 'limit' | 'maxBytes'>,
  maxBytes: number,
  now: () => Date,
): AsyncGenerator<string> {
  yield `\uFEFF${stringify([MEMBER_CSV_COLUMNS])}`;
  let afterId = 0;
  for (;;) {
    const members = await listMembersOfFacility(
      db,
      facilityId,
      filter,
      {
        afterId,
        rows: EXPORT_PAGE_ROWS,
        maxBytes,
      },
      now(),
    );
    if (members.length === 0) return;
    yield stringify(members.map((member) => MEMBER_CSV_COLUMNS.map((column) => cellOf(member[column]))));
    afterId = members[members.length - 1].id;
  }
}
