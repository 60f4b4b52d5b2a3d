import { type ErrorCode, problemDefinition, problemType } from '../../core/errors.js';

/** A realistic problem document for the code, as the error handler writes it (the OpenAPI document's examples). */
export function problemExample(code: ErrorCode) {
  const { title, status, example } = problemDefinition(code);
  return {
    type: problemType(code),
    title,
    status,
    detail: example.detail,
    code,
    // The OpenAPI document puts each operation's own path here (src/http/pipeline/openapi.ts).
    instance: '/admin/facilities/1/plans',
    request_id: '4e8486049265b344-2v',
    ...(example.errors ? { errors: example.errors } : {}),
  };
}
