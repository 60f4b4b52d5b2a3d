import type { Readable } from 'node:stream';

const BAR_WIDTH = 30;
const bar = (share: number) => `[${'#'.repeat(Math.round(share * BAR_WIDTH)).padEnd(BAR_WIDTH, '.')}]`;

/** The file as it is read, with its share sent shown on a terminal's stderr. */
export function uploadProgress(file: Readable, size: number): Readable {
  if (!process.stderr.isTTY || size === 0) return file;
  let sent = 0;
  file.on('data', (chunk: Buffer) => {
    sent += chunk.length;
    const share = sent / size;
    process.stderr.write(`\r${bar(share)} ${Math.round(share * 100)}% sent`.padEnd(60));
  });
  return file;
}

interface JobProgress {
  state: string;
  progress: { phase: string | null; rows_done: number; rows_total: number | null };
}

const WORDS: Record<string, string> = { checking: 'checked', writing: 'written', undoing: 'undone' };

/** One line of a job's progress: `[####......] 12,000 / 50,000 rows checked`. */
export function jobProgressLine({ state, progress }: JobProgress): string {
  const { phase, rows_done: done, rows_total: total } = progress;
  if (state === 'queued') return `${bar(0)} waiting for its turn`.padEnd(60);
  const share = total ? Math.min(1, done / total) : 0;
  const rows =
    total === null
      ? done.toLocaleString('en')
      : `${done.toLocaleString('en')} / ${total.toLocaleString('en')}`;
  return `${bar(share)} ${rows} rows ${WORDS[phase ?? 'checking'] ?? phase}${state === 'running' ? '' : `, ${state}`}`.padEnd(
    60,
  );
}
