import { writeSync } from 'node:fs';
import pino from 'pino';

/** Linux's PIPE_BUF: a write of at most this many bytes to a pipe is never split. */
const ATOMIC_PIPE_WRITE_BYTES = 4096;
/**
 * Lines are handed on once this much has gathered: one write (a trip to the
 * thread pool and back) then carries a dozen lines. Writing each line as it
 * came cost about 3.5 µs of a 48 µs point read.
 */
const WRITE_AFTER_BYTES = 3072;
/** With little traffic, lines wait at most this long before they are written. */
const WRITE_AT_LEAST_EVERY_MS = 1000;
/** What a log reader that stops reading may cost in memory before lines are dropped. */
const MAX_PENDING_LOG_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface LogDestination {
  stream: pino.DestinationStream;
  /** Lines dropped because the reader fell MAX_PENDING_LOG_BYTES behind. */
  droppedLines(): number;
}

/**
 * stdout (or `fd`, in tests), written off the request path, in batches of
 * whole lines:
 *
 * - Lines gather here in a string; a batch of at most PIPE_BUF bytes goes to
 *   pino's asynchronous destination (sonic-boom), which writes it from the
 *   thread pool. Batches within PIPE_BUF keep the lines of several workers
 *   sharing one pipe from interleaving.
 * - Batches are strings, which the write encodes outside the JavaScript heap.
 *   A Buffer per line (or per batch) is a slice of an 8 KB pool slab that
 *   lives until its write returns, long enough to be promoted, so dead slabs
 *   piled up as external memory: 18 to 22 MB under a point-read load. Handing
 *   sonic-boom a string per line instead made it re-measure its whole pending
 *   string on every append; a string per batch is measured once.
 * - A reader that stops reading (a stuck pipe) does not stall requests:
 *   lines wait in memory up to 8 MB, then are dropped and counted
 *   (log_lines_dropped_total).
 * - When the process exits, pino writes what sonic-boom holds, then the
 *   lines still gathered here are written after them.
 */
export function openLogDestination(fd = 1): LogDestination {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    maxWrite: ATOMIC_PIPE_WRITE_BYTES,
    maxLength: MAX_PENDING_LOG_BYTES,
    minLength: 0,
  });
  let dropped = 0;
  destination.on('drop', (batch: string) => {
    for (let i = 0; i < batch.length; i++) if (batch.charCodeAt(i) === NEWLINE) dropped++;
  });

  let gathered = '';
  let gatheredBytes = 0;
  const take = (): string | undefined => {
    if (gatheredBytes === 0) return undefined;
    const batch = gathered;
    gathered = '';
    gatheredBytes = 0;
    return batch;
  };
  const handOn = () => {
    const batch = take();
    if (batch) destination.write(batch);
  };
  setInterval(handOn, WRITE_AT_LEAST_EVERY_MS).unref();
  // Registered after pino's own exit handler, so these lines follow the ones it flushes.
  process.once('exit', () => {
    const batch = take();
    if (batch) writeSync(fd, batch);
  });

  const stream: pino.DestinationStream = {
    write(line) {
      const bytes = Buffer.byteLength(line);
      if (gatheredBytes + bytes > ATOMIC_PIPE_WRITE_BYTES) handOn();
      gathered += line;
      gatheredBytes += bytes;
      if (gatheredBytes >= WRITE_AFTER_BYTES) handOn();
    },
  };
  return { stream, droppedLines: () => dropped };
}
