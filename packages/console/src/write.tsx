import { useRef, useState } from 'preact/hooks';
import { ProblemNotice } from './ui';

/** What follows a write that succeeded. */
export interface Then {
  /** Runs first (a resource is read again by default). */
  after?: () => void;
  /** What the write did, in words ("Policy saved."). */
  notice?: string;
}

export interface Write {
  /** A write is under way: a second one waits for it to end (a double click sends one request). */
  busy: boolean;
  /** What the last write failed with, until the next one starts (the read's own is `error`). */
  failure: unknown;
  /** What the last write said it did, until the next one starts. */
  notice: string;
  /** Runs `change` unless a write is under way, then `then`; a failure is kept. True when it succeeded. */
  run: (change: () => Promise<unknown>, then?: Then) => Promise<boolean>;
  /** A form's submit handler that runs `change`; `blocked` (a field the form itself refuses) sends nothing. */
  submit: (change: () => Promise<unknown>, then?: Then & { blocked?: boolean }) => (event: Event) => void;
  /** Forgets the last write's error and notice. */
  clear: () => void;
  /** Says what a write made elsewhere (a form's own submit) did. */
  announce: (notice: string) => void;
}

/** One write at a time, its failure and what it did: a form's submit, a page's buttons. */
export function useWrite(initialError?: unknown): Write {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(initialError);
  const [notice, setNotice] = useState('');
  // Set at once (a state update is not): a double click sends one request.
  const inFlight = useRef(false);
  const run: Write['run'] = async (change, then = {}) => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setBusy(true);
    setFailure(undefined);
    setNotice('');
    try {
      await change();
      then.after?.();
      if (then.notice) setNotice(then.notice);
      return true;
    } catch (caught) {
      setFailure(caught);
      return false;
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return {
    busy,
    failure,
    notice,
    run,
    submit:
      (change, { blocked, ...then } = {}) =>
      (event) => {
        event.preventDefault();
        if (!blocked) run(change, then);
      },
    clear: () => {
      setFailure(undefined);
      setNotice('');
    },
    announce: setNotice,
  };
}

/** A write's outcome: its problem (a 412 offers `onReload`), or what it did, as a status for screen readers. */
export function WriteOutcome({
  write,
  onReload,
  notice = true,
}: {
  write: Pick<Write, 'failure' | 'notice'>;
  onReload?: () => void;
  /** False while the notice no longer holds (the form was changed since). */
  notice?: boolean;
}) {
  return (
    <>
      {write.failure !== undefined && <ProblemNotice error={write.failure} onReload={onReload} />}
      <p class="notice ok" role="status" hidden={!notice || !write.notice}>
        {write.notice}
      </p>
    </>
  );
}

/** A form's end: its write's outcome, then Cancel (when it offers one) and the submit button, busy while it runs. */
export function FormEnd({
  write,
  submitLabel,
  busyLabel = 'Saving…',
  onCancel,
  onReload,
}: {
  write: Pick<Write, 'busy' | 'failure' | 'notice'>;
  submitLabel: string;
  busyLabel?: string;
  onCancel?: () => void;
  /** After a 412: reload what the form edits. */
  onReload?: () => void;
}) {
  return (
    <>
      <WriteOutcome write={write} onReload={onReload} />
      <div class="actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={write.busy}>
          {write.busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
