import { type Api, type CreateOptions, facility, idempotency, type Query } from './requests.js';
import { payloadOf } from './results.js';
import type { MemberImportReport } from './schema.js';

export type MemberImportQuery = Query<'importMembers'>;
export type MemberExportQuery = Query<'exportMembers'>;

/** What an import sends: the CSV text or bytes as they are. */
export type MembersCsvBody = string | Blob | Uint8Array | ReadableStream<Uint8Array>;

/** CSV import and export of a facility's members. */
export function memberCsvOperations(api: Api) {
  return {
    /**
     * Imports a CSV file of members (or checks it, with `dry_run: true`):
     * the report counts what was or would be created, updated and left
     * unchanged, and lists each failing row.
     */
    importMembers: async (
      facilityId: number,
      csv: MembersCsvBody,
      query: MemberImportQuery = {},
      create?: CreateOptions,
    ): Promise<MemberImportReport> =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/members/import', {
          params: { ...facility(facilityId), query, header: idempotency(create) },
          body: csv as unknown as string,
          // The bytes as they are, not JSON.
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'content-type': 'text/csv' },
        }),
      ),
    /** The facility's members as a CSV file, streamed as the service writes it. */
    exportMembers: async (
      facilityId: number,
      query: MemberExportQuery = {},
    ): Promise<ReadableStream<Uint8Array>> => {
      const result = await api.GET('/admin/facilities/{facility_id}/members/export.csv', {
        params: { ...facility(facilityId), query },
        parseAs: 'stream',
      });
      payloadOf({ ...result, data: undefined });
      return result.response.body as ReadableStream<Uint8Array>;
    },
  };
}
