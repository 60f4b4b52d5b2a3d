import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import type { Db } from '../../../db/database.js';
import { DigestedBody } from '../../../infrastructure/idempotency/idempotency.hooks.js';
import { readMemberCsv } from './member-csv.reader.js';
import type { Lease } from './member-import.repository.js';
import { insertChunk } from './member-import-data.repository.js';

export interface UploadLimits {
  /** IMPORT_MAX_BYTES: the largest CSV body. */
  maxBytes: number;
  /** IMPORT_MAX_ROWS: the most rows one import takes. */
  maxRows: number;
  /** IMPORT_UPLOADS: uploads a process receives at once; more are 503 with Retry-After. */
  uploads: number;
  /** IMPORT_MAX_QUEUED: jobs waiting (and uploads under way) in all processes; more are 503. */
  maxQueued: number;
  /** IMPORT_UPLOAD_TIMEOUT_MS: an upload whose body has not arrived by then is cut off. */
  uploadTimeoutMs: number;
}

/** An upload this process receives: its job row, still `receiving`, or none for a retry that is only hashed. */
export interface Upload {
  lease: Lease | undefined;
  rows: number;
  bytes: number;
  /** The whole body arrived. */
  received: boolean;
  /** Made a queued job: no longer this request's to discard. */
  queued: boolean;
  released: boolean;
  /** Gives the upload's place in this process back, and deletes its job row unless it was queued. */
  release(): void;
  /** Deletes its job row unless it was queued. */
  discard(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    memberUpload: Upload | null;
  }
}

/** A refusal before the body is read: the connection closes after it, the rest of the body unread. */
export function refusal(
  code: 'service_unavailable' | 'import_in_progress' | 'payload_too_large',
  detail: string,
  retryAfter?: number,
) {
  return new AppError(code, detail, {
    headers: { connection: 'close', ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}) },
  });
}

/** Bytes stored a row; the slices the CSV is checked in as it arrives. */
const CHUNK_BYTES = 64 * 1024;
const SLICE_BYTES = 16 * 1024;

export function tooLarge(maxBytes: number): AppError {
  return refusal(
    'payload_too_large',
    `The file is larger than ${maxBytes} bytes, the most one import takes (IMPORT_MAX_BYTES)`,
  );
}

/**
 * Reads an import's body as it arrives, holding a chunk at most: each 64 KiB
 * goes to the job's chunks in the database, every byte into the SHA-256 that
 * fingerprints the request for an Idempotency-Key, and through the CSV
 * reader, so that a file that cannot be imported (not UTF-8, an unknown
 * column, a broken quote, too many rows) is 400 before it becomes a job. A
 * retry whose answer an Idempotency-Key record gives (no job row) is only
 * hashed. Counts the upload's bytes and rows.
 */
export async function receiveBody(
  db: Db,
  request: FastifyRequest,
  upload: Upload,
  body: Readable,
  limits: UploadLimits,
): Promise<DigestedBody> {
  const hash = createHash('sha256');
  const importId = upload.lease?.id;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  const flush = async () => {
    if (importId === undefined || pendingBytes === 0) return;
    const bytes = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await insertChunk(db, importId, seq++, bytes);
  };
  async function* slices(): AsyncGenerator<Buffer> {
    for await (const chunk of body.iterator({ destroyOnReturn: false })) {
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
        // A body that arrives whole (app.inject's) is still read a slice a turn.
        if (at > 0) await nextTurn();
        const slice = chunk.subarray(at, at + SLICE_BYTES);
        upload.bytes += slice.length;
        if (upload.bytes > limits.maxBytes) throw tooLarge(limits.maxBytes);
        hash.update(slice);
        if (importId !== undefined) {
          pending.push(slice);
          pendingBytes += slice.length;
          if (pendingBytes >= CHUNK_BYTES) await flush();
        }
        yield slice;
      }
    }
    await flush();
  }
  try {
    if (importId === undefined) for await (const _slice of slices());
    else for await (const _row of readMemberCsv(slices(), limits.maxRows)) upload.rows += 1;
  } catch (error) {
    if (!(error instanceof AppError)) {
      if (request.raw.destroyed)
        throw new AppError('validation_error', 'The upload ended before its body did');
      throw error;
    }
    // The rest of the body is read and dropped, so that the client, still sending, reads the answer;
    // past the size limit the connection closes after the answer instead.
    if (error.code !== 'payload_too_large' && (await drained(body, limits.maxBytes - upload.bytes)))
      throw error;
    throw new AppError(error.code, error.message, { headers: { ...error.headers, connection: 'close' } });
  }
  upload.received = true;
  return new DigestedBody(hash.digest('hex'));
}

/** Reads the rest of a body and drops it; false when it holds more than `budget` bytes (then it stops). */
async function drained(body: Readable, budget: number): Promise<boolean> {
  let left = budget;
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    left -= (chunk as Buffer).length;
    if (left < 0) return false;
  }
  return true;
}
