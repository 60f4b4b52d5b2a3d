import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/**
 * Something to pass on that the service answers once (a one-time link, an API
 * key's secret): in a callout that takes focus, with a copy button. The
 * console keeps it nowhere: leaving the screen drops it.
 */
export function CopyCallout({
  title,
  label,
  copyLabel = `Copy ${label.toLowerCase()}`,
  value,
  children,
}: {
  title: string;
  /** The field's name, for screen readers and the button ("Copy link"). */
  label: string;
  /** The button's words, when not "Copy" and the label. */
  copyLabel?: string;
  value: string;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'select' | null>(null);
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // No clipboard (a browser's setting): select it for Ctrl+C.
      input.current?.select();
      setCopied('select');
    }
  };
  return (
    <section class="notice secret" tabIndex={-1} ref={ref} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <div class="secret-row">
        <label class="visually-hidden" for={id}>
          {label}
        </label>
        <input
          id={id}
          ref={input}
          class="secret-value"
          readOnly
          value={value}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          {copyLabel}
        </button>
      </div>
      <p role="status" class="small">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'select'
            ? 'Selected: press Ctrl+C (⌘C) to copy.'
            : ''}
      </p>
    </section>
  );
}
