import { writeSync } from 'node:fs';
import pino from 'pino';

/** Linux's PIPE_BUF: a write of at most this many bytes to a pipe is never split. */
const ATOMIC_PIPE_WRITE_BYTES = 4096;
/**
 * Lines are handed on once this much has gathered: one write (a trip to the
 * thread pool and back) then carries a dozen lines. Writing each line as it
 * came cost a noticeable share of a point read (docs/performance-log.md).
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
  /** Hands on the lines gathered so far and resolves once every line handed on is written (or dropped). */
  flushed(): Promise<void>;
}

/**
 * stdout (or `fd`, in tests), written off the request path, in batches of
 * whole lines:
 *
 * - Each line is encoded, as it comes, into a batch buffer outside the
 *   JavaScript heap; a batch of at most PIPE_BUF bytes goes to pino's
 *   asynchronous destination (sonic-boom), which writes it from the thread
 *   pool. Batches within PIPE_BUF keep the lines of several workers sharing
 *   one pipe from interleaving.
 * - No line outlives its request on the heap. Lines gathered as strings until
 *   a batch was full lived across a dozen requests, long enough to be copied
 *   by the young-generation GC and promoted: several times the bytes a
 *   request and longer scavenge pauses (docs/performance-log.md).
 *   Earlier, a Buffer per line was a slice of an 8 KB pool slab that lived
 *   until its write returned, and dead slabs piled up as megabytes of
 *   external memory; a batch buffer is allocated whole and freed with its
 *   batch.
 * - A reader that stops reading (a stuck pipe) does not stall requests:
 *   lines wait in memory up to MAX_PENDING_LOG_BYTES, then are dropped and counted
 *   (log_lines_dropped_total).
 * - A graceful stop waits for `flushed()` (an onClose hook). When the
 *   process then exits, pino writes what sonic-boom still holds, and the
 *   lines still gathered here follow. An exit without that wait can lose a
 *   batch that sonic-boom is retrying after EAGAIN (a full pipe): its
 *   flushSync skips the batch it is writing.
 */
export function openLogDestination(fd = 1): LogDestination {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    contentMode: 'buffer',
    maxWrite: ATOMIC_PIPE_WRITE_BYTES,
    maxLength: MAX_PENDING_LOG_BYTES,
    minLength: 0,
  });
  // In buffer mode sonic-boom takes Buffers; its types know only strings.
  const write = destination.write.bind(destination) as unknown as (batch: Buffer) => boolean;
  /** Bytes handed to sonic-boom and neither written nor dropped yet. */
  let unwrittenBytes = 0;
  let whenWritten: (() => void)[] = [];
  const settle = () => {
    if (unwrittenBytes > 0) return;
    for (const resolve of whenWritten) resolve();
    whenWritten = [];
  };
  const writeBatch = (batch: Buffer) => {
    unwrittenBytes += batch.length;
    write(batch);
  };
  destination.on('write', (bytes: number) => {
    unwrittenBytes -= bytes;
    settle();
  });
  let dropped = 0;
  destination.on('drop', (lost: Buffer) => {
    unwrittenBytes -= lost.length;
    for (let at = lost.indexOf(NEWLINE); at !== -1; at = lost.indexOf(NEWLINE, at + 1)) dropped++;
    settle();
  });

  let batch = Buffer.allocUnsafeSlow(ATOMIC_PIPE_WRITE_BYTES);
  let gatheredBytes = 0;
  const take = (): Buffer | undefined => {
    if (gatheredBytes === 0) return undefined;
    const taken = batch.subarray(0, gatheredBytes);
    batch = Buffer.allocUnsafeSlow(ATOMIC_PIPE_WRITE_BYTES);
    gatheredBytes = 0;
    return taken;
  };
  const handOn = () => {
    const taken = take();
    if (taken) writeBatch(taken);
  };
  setInterval(handOn, WRITE_AT_LEAST_EVERY_MS).unref();
  // Registered after pino's own exit handler, so these lines follow the ones it flushes.
  process.once('exit', () => {
    const taken = take();
    if (taken) writeSync(fd, taken);
  });

  const stream: pino.DestinationStream = {
    write(line) {
      const bytes = Buffer.byteLength(line);
      if (gatheredBytes + bytes > ATOMIC_PIPE_WRITE_BYTES) handOn();
      if (bytes > ATOMIC_PIPE_WRITE_BYTES) {
        // Longer than any batch (a long error): written on its own, after the lines before it.
        writeBatch(Buffer.from(line));
        return;
      }
      batch.write(line, gatheredBytes);
      gatheredBytes += bytes;
      if (gatheredBytes >= WRITE_AFTER_BYTES) handOn();
    },
  };
  const flushed = () =>
    new Promise<void>((resolve) => {
      handOn();
      whenWritten.push(resolve);
      settle();
    });
  return { stream, droppedLines: () => dropped, flushed };
}
