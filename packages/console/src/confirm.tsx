import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/** What a confirmation asks, and what confirming does. */
export interface Question {
  title: string;
  /** What happens, in a sentence or two. */
  body: ComponentChildren;
  confirmLabel: string;
  /** The words of the button that backs out ("Cancel"; "Keep it" when the action itself cancels). */
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
}

export interface Confirmation<T> {
  /** Opens the dialog about `subject` (an action's name, a row). */
  ask: (subject: T) => void;
  /** The dialog while a question is open, else nothing: `question` words it for its subject. */
  dialog: (question: (subject: T) => Question) => JSX.Element | null;
}

/**
 * A question asked before a destructive or hard-to-undo action: `ask` opens
 * the dialog, backing out (its button or Escape) closes it, and confirming
 * closes it before the action runs.
 */
export function useConfirm<T extends string | number | object>(): Confirmation<T> {
  const [subject, setSubject] = useState<T | null>(null);
  return {
    ask: (asked) => setSubject(() => asked),
    dialog: (question) => {
      if (subject === null) return null;
      const { body, onConfirm, ...words } = question(subject);
      return (
        <ConfirmDialog
          {...words}
          onCancel={() => setSubject(null)}
          onConfirm={() => {
            setSubject(null);
            onConfirm();
          }}
        >
          {body}
        </ConfirmDialog>
      );
    },
  };
}

type ConfirmProps = Omit<Question, 'body' | 'onConfirm'> & {
  children: ComponentChildren;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A modal question: the native dialog keeps focus inside, Escape cancels, focus goes back where it was. */
function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onCancel} class="dialog">
      <h2 id={titleId}>{title}</h2>
      <div>{children}</div>
      <div class="actions">
        <button type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" class={danger ? 'danger' : 'primary'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
