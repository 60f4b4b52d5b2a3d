import type { ComponentChildren } from 'preact';
import { CopyCallout } from '../copy';

/**
 * A signing secret the service answers once (at create and rotation), with
 * the warning that it will not be shown again.
 */
export function SecretCallout({ secret, children }: { secret: string; children?: ComponentChildren }) {
  return (
    <CopyCallout title="Signing secret" label="Signing secret" copyLabel="Copy secret" value={secret}>
      <p>
        <strong>Copy this secret now: it will not be shown again.</strong> Your receiver checks each
        delivery's signature with it.
      </p>
      {children}
    </CopyCallout>
  );
}
