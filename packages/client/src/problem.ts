import type { FieldError, Problem, ValidationProblem } from './schema.js';

/** The codes of every problem the service answers (`Problem` and `ValidationProblem`). */
export type ProblemCode = Problem['code'] | ValidationProblem['code'];

/**
 * An answer that is not a success, as an error: the service's problem
 * document (RFC 9457) with its `code` to branch on. An answer that is not a
 * problem document (a proxy's error page, say) has the code
 * `unexpected_response`.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode | 'unexpected_response';
  readonly detail: string;
  /** The fields that were not valid, with `validation_error`; empty otherwise. */
  readonly errors: FieldError[];
  /** The service's id of the request (its X-Request-Id): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The whole problem document, or the body as it came when it was not one. */
  readonly body: unknown;

  constructor(status: number, body: unknown, requestId?: string) {
    const problem = problemIn(body);
    const detail = problem?.detail ?? `The service answered ${status} without a problem document`;
    super(problem ? `${problem.code}: ${detail}` : detail);
    this.name = 'ProblemError';
    this.status = status;
    this.code = problem?.code ?? 'unexpected_response';
    this.detail = detail;
    this.errors = (problem as ValidationProblem | undefined)?.errors ?? [];
    this.requestId = problem?.request_id ?? requestId;
    this.body = body;
  }
}

/** The problem document in a body: bare, or wrapped in `data` as rule 1 of the spec allows. */
function problemIn(body: unknown): (Problem | ValidationProblem) | undefined {
  if (!isObject(body)) return undefined;
  if (typeof body.code === 'string' && typeof body.detail === 'string') return body as unknown as Problem;
  return isObject(body.data) ? problemIn(body.data) : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
