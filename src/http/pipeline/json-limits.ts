/** How far a JSON body may nest and how many keys it may hold (config JSON_MAX_DEPTH, JSON_MAX_KEYS). */
export interface JsonLimits {
  maxDepth: number;
  maxKeys: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * The limit a JSON text breaks, in words, or undefined. Read from the text,
 * before JSON.parse: everything after it (parsing, validation, the
 * idempotency hash, the problem document) costs time in proportion to the
 * body's keys, and some of it recursion in its depth. A body of 23,000 keys
 * is refused after reading its first 1,001. Array items count as keys, as
 * they do in a JSON pointer. Exact for valid JSON; a text that is not JSON
 * either breaks a limit here or fails to parse afterwards.
 */
export function jsonLimitProblem(text: string, limits: JsonLimits): string | undefined {
  // One entry per open object or array: true for an array.
  const open: boolean[] = [];
  let keys = 0;
  let inString = false;
  // Just after "[": the next token starts the array's first item, unless it closes the array.
  let arrayJustOpened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const counts =
      (arrayJustOpened && c !== CLOSE_ARRAY) ||
      c === COLON ||
      (c === COMMA && open[open.length - 1] === true);
    arrayJustOpened = false;
    if (counts && ++keys > limits.maxKeys)
      return `has more than ${limits.maxKeys} keys and array items in all`;
    if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (open.length === limits.maxDepth) {
        return `is nested more than ${limits.maxDepth} levels deep (objects and arrays)`;
      }
      open.push(c === OPEN_ARRAY);
      arrayJustOpened = c === OPEN_ARRAY;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    }
  }
  return undefined;
}
