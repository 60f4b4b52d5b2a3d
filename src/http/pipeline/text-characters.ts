import type { ErrorObject } from 'ajv';

/**
 * Text the databases cannot store as sent is invalid on either one, and
 * reported with the schema's errors: U+0000, which PostgreSQL text cannot
 * hold, and an unpaired UTF-16 surrogate (JSON's "\ud800"), which is no
 * character at all: PostgreSQL stores U+FFFD in its place and SQLite three
 * bytes of invalid UTF-8, so the two would answer differently.
 */
export function textCharacterErrors(value: unknown, pointer: string): ErrorObject[] {
  if (typeof value === 'string') {
    const message = textCharacterProblem(value);
    return message === undefined ? NO_ERRORS : [textError(pointer, message)];
  }
  if (value === null || typeof value !== 'object') return NO_ERRORS;
  // A loop, not recursion: a body nested ten thousand deep must be a 400, not a stack overflow.
  let errors = NO_ERRORS;
  const pending: [unknown, string][] = [[value, pointer]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [container, at] = next as [Record<string, unknown>, string];
    for (const key in container) {
      const keyAt = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const item = container[key];
      const message =
        textCharacterProblem(key) ?? (typeof item === 'string' ? textCharacterProblem(item) : undefined);
      if (message === undefined) {
        if (item !== null && typeof item === 'object') pending.push([item, keyAt]);
        continue;
      }
      // A fresh list on the first problem (NO_ERRORS is shared), then appended to in place.
      if (errors === NO_ERRORS) errors = [];
      errors.push(textError(keyAt, message));
    }
  }
  return errors;
}

function textError(instancePath: string, message: string): ErrorObject {
  return { keyword: 'text', instancePath, schemaPath: '', params: {}, message };
}

/** String.prototype.isWellFormed (Node 20), which TypeScript's ES2022 library does not declare. */
type MaybeWellFormed = string & { isWellFormed(): boolean };

function textCharacterProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (!(text as MaybeWellFormed).isWellFormed())
    return 'must not contain an unpaired surrogate (U+D800 to U+DFFF)';
  return undefined;
}

/** Shared by every clean value: most requests have nothing to report. */
const NO_ERRORS: ErrorObject[] = [];
