import { createValidatorCompiler, toFieldErrors } from '../../../http/pipeline/validation.js';
import { Ref } from '../../../http/vocabulary/schemas.js';
import { MemberCreate, MemberUpdate } from '../member.schemas.js';
import type { RowValidator } from './member-import-row.service.js';

/** The body validation of POST and PATCH, for each row: one set of rules for the API and the import. */
export function rowValidator(): RowValidator {
  const compile = createValidatorCompiler([]);
  const check = (schema: object) => {
    const validate = compile({ schema, httpPart: 'body', method: 'POST', url: '' }) as (data: unknown) => {
      error?: { validation: never };
    };
    return (fields: Record<string, unknown>) => {
      const { error } = validate(fields);
      return error ? toFieldErrors(error.validation, 'body') : [];
    };
  };
  return { create: check(Ref(MemberCreate)), update: check(Ref(MemberUpdate)) };
}
