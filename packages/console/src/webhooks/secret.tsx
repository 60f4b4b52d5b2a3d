import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/**
 * A signing secret the service answers once (at create and rotation): in a
 * callout that takes focus, with a copy button, and the warning that it will
 * not be shown again. The console keeps it nowhere: leaving the screen drops it.
 */
export function SecretCallout({ secret, children }: { secret: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'select' | null>(null);
  useEffect(() => ref.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      // No clipboard (a browser's setting): select it for Ctrl+C.
      input.current?.select();
      setCopied('select');
    }
  };
  return (
    <section class="notice secret" tabIndex={-1} ref={ref} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Signing secret</h2>
      <p>
        <strong>Copy this secret now: it will not be shown again.</strong> Your receiver checks each
        delivery's signature with it.
      </p>
      {children}
      <div class="secret-row">
        <label class="visually-hidden" for={id}>
          Signing secret
        </label>
        <input
          id={id}
          ref={input}
          class="secret-value"
          readOnly
          value={secret}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy secret
        </button>
      </div>
      <p class="small" role="status">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'select' && 'Selected: press Ctrl+C (⌘C) to copy.'}
      </p>
    </section>
  );
}
