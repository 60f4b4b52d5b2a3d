import type { MemberImport } from '@facility-admin/client';

const PHASES: Record<NonNullable<MemberImport['progress']['phase']>, string> = {
  checking: 'Checked',
  writing: 'Written',
  undoing: 'Undone',
};

/** A running import: its phase and rows done, as a bar and in words (the words are what a reader hears). */
export function ImportProgress({ job }: { job: MemberImport }) {
  if (job.state === 'succeeded' || job.state === 'failed') return null;
  const { phase, rows_done: done, rows_total: total } = job.progress;
  const words =
    job.state === 'queued'
      ? 'Waiting for its turn: another import is running.'
      : `${PHASES[phase ?? 'checking'] ?? 'Done'}: ${done.toLocaleString('en')}${
          total === null ? '' : ` of ${total.toLocaleString('en')}`
        } rows.`;
  return (
    <div class="import-progress">
      <progress
        max={total ?? undefined}
        value={job.state === 'queued' || total === null ? undefined : done}
        aria-label="Import progress"
        aria-valuetext={words}
      />
      <p class="muted">{words}</p>
    </div>
  );
}
