import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { sendProblem } from '../../../http/pipeline/error-handler.js';
import { collectRequestErrors } from '../../../http/pipeline/validation.js';
import { collectionPathOf } from '../../../http/replies/write-request.js';
import {
  type DigestedBody,
  isRetryOfRememberedRequest,
} from '../../../infrastructure/idempotency/idempotency.hooks.js';
import {
  countWaitingImports,
  deleteImport,
  findUnfinishedImport,
  insertReceivingImport,
  type Lease,
  updateLeasedImport,
} from './member-import.repository.js';
import { receiveBody, refusal, tooLarge, type Upload, type UploadLimits } from './member-import-body.js';

export type { UploadLimits };

/** An upload whose process has not renewed it for this long died with it. */
const UPLOAD_LEASE_MS = 60_000;
/**
 * The upload of an import, in two steps. `admit` (onRequest, after
 * authentication) refuses before any byte of the body is read: invalid
 * parameters, another media type, a declared length over the limit, too
 * many uploads in this process, too many jobs waiting, or an unfinished
 * import of the facility (409, unless the request is a retry of a
 * remembered Idempotency-Key, whose answer the record gives); else it makes
 * the job row. `receive` (the text/csv parser) then streams the body into
 * the job's chunks, hashing it for the Idempotency-Key and checking the CSV
 * as it passes, so that a file that cannot be imported is 400 at once.
 */
export function memberUploads(app: FastifyInstance, limits: UploadLimits) {
  app.decorateRequest('memberUpload', null);
  let receiving = 0;
  const clock = () => app.now();
  const leaseOf = (id: number, token: string): Lease => ({
    id,
    token,
    until: new Date(clock().getTime() + UPLOAD_LEASE_MS).toISOString(),
  });

  const reserve = async (request: FastifyRequest, facilityId: number): Promise<Lease | undefined> => {
    const token = randomUUID();
    // Raw text here (validated, not yet converted): the route's validation converts it later.
    const { dry_run, match_by = 'none', on_error = 'abort' } = request.query as Record<string, string>;
    for (let attempt = 0; ; attempt++) {
      try {
        const values = {
          facility_id: facilityId,
          dry_run: dry_run === 'true' ? 1 : 0,
          match_by,
          on_error,
          api_key_id: request.principal.keyId,
          staff_user_id: request.principal.staffUserId,
          api_key_name: request.principal.actor.name,
          request_id: String(request.id),
          created_at: clock().toISOString(),
          lease_token: token,
          locked_until: new Date(clock().getTime() + UPLOAD_LEASE_MS).toISOString(),
        };
        return leaseOf(await insertReceivingImport(app.db, values), token);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const unfinished = await findUnfinishedImport(app.db, facilityId);
      // An upload whose process died holds the facility until its lease ends: then it is gone.
      const dead =
        unfinished?.state === 'receiving' && (unfinished.locked_until ?? '') < clock().toISOString();
      if (dead && attempt === 0) {
        await deleteImport(app.db, unfinished.id);
        continue;
      }
      if (await isRetryOfRememberedRequest(app.db, request)) return undefined;
      throw refusal(
        'import_in_progress',
        unfinished === undefined || unfinished.state === 'receiving'
          ? `An import of facility ${facilityId} is being uploaded; one import of a facility runs at a time`
          : `Facility ${facilityId} has an import that is not finished (${unfinished.state}): ` +
              `${importsPathOf(request)}/${unfinished.id}; one import of a facility runs at a time`,
      );
    }
  };

  const admitOrRefuse = async (request: FastifyRequest, reply: FastifyReply) => {
    const problems = collectRequestErrors(request);
    if (problems.length > 0) throw Object.assign(new Error('invalid request'), { validation: [] });
    if (!/^text\/csv\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
      throw new AppError('unsupported_media_type', 'Send the members as Content-Type: text/csv', {
        headers: { connection: 'close' },
      });
    }
    if (Number(request.headers['content-length'] ?? 0) > limits.maxBytes) throw tooLarge(limits.maxBytes);
    if (receiving >= limits.uploads) {
      throw refusal(
        'service_unavailable',
        `This process is receiving ${receiving} imports already; retry shortly`,
        5,
      );
    }
    receiving += 1;
    let renewal: NodeJS.Timeout | undefined;
    // A body that has not arrived by IMPORT_UPLOAD_TIMEOUT_MS (one trickled to hold the place) is cut off.
    const deadline = setTimeout(() => {
      if (upload.received) return;
      request.log.warn(
        'member import: an upload took longer than IMPORT_UPLOAD_TIMEOUT_MS; its connection is closed',
      );
      request.raw.destroy();
    }, limits.uploadTimeoutMs).unref();
    const upload: Upload = {
      lease: undefined,
      rows: 0,
      bytes: 0,
      received: false,
      queued: false,
      release: () => {
        if (upload.released) return;
        upload.released = true;
        receiving -= 1;
        clearInterval(renewal);
        clearTimeout(deadline);
        void upload.discard();
      },
      released: false,
      discard: () => {
        if (!upload.lease || upload.queued) return Promise.resolve();
        const { id } = upload.lease;
        upload.lease = undefined;
        return deleteImport(app.db, id).catch((error) =>
          request.log.warn({ err: error }, 'member import: an upload that ended was not deleted'),
        );
      },
    };
    // After the answer, or when the client goes away first.
    reply.raw.once('close', upload.release);
    try {
      if ((await countWaitingImports(app.db)) >= limits.maxQueued) {
        throw refusal(
          'service_unavailable',
          `${limits.maxQueued} imports are waiting to run; retry later`,
          30,
        );
      }
      upload.lease = await reserve(request, Number((request.params as { facility_id: string }).facility_id));
    } catch (error) {
      upload.release();
      throw error;
    }
    request.memberUpload = upload;
    // A slow upload keeps its lease; one whose process died loses it, and with it the facility's place.
    renewal = setInterval(() => {
      const held = upload.lease;
      if (held === undefined) return;
      upload.lease = leaseOf(held.id, held.token);
      updateLeasedImport(app.db, upload.lease, {}).catch(() => {});
    }, UPLOAD_LEASE_MS / 3).unref();
  };

  // A refusal for load is answered here, not logged as the error handler logs a lost database.
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await admitOrRefuse(request, reply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'service_unavailable') {
        return sendProblem(request, reply, error);
      }
      throw error;
    }
  };

  /**
   * Before any answer but the job's 202 (a refusal of the file, a replay of an Idempotency-Key):
   * the upload's job row is gone by the time the client reads it, so that it may send again at once.
   */
  const settle = async (request: FastifyRequest) => {
    await request.memberUpload?.discard();
  };

  const receive = (request: FastifyRequest, body: Readable): Promise<DigestedBody> =>
    receiveBody(app.db, request, request.memberUpload as Upload, body, limits);

  return { admit, receive, settle };
}

/** The path of the facility's imports, from the path of a POST to `…/members/import` (BASE_PATH included). */
export function importsPathOf(request: FastifyRequest): string {
  return collectionPathOf(request).replace(/\/import$/, '/imports');
}
