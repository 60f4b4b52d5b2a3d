/** An operation as the fuzz suite (test/robustness.test.ts) drives it: what its body and query take. */
import type { Operation } from '../api-document.js';

/** One operation as the fuzz drives it, with the ids of what its example made (its fixture). */
export interface FuzzTarget {
  operation: Operation;
  /** Field names of the JSON body (the schema's and the read-only ones); undefined when it takes no JSON body. */
  fields?: string[];
  /** The example's body, as sent, and its media type; undefined when the operation takes no body. */
  validPayload?: string;
  contentType?: string;
  query: { ids: string[]; booleans: string[]; others: string[] };
  /** The path parameters of the example request. */
  params: Record<string, string>;
}

/** Fields every resource has and no body may set (contract: "General"). */
const READ_ONLY = ['id', 'facility_id', 'created_at', 'updated_at', 'deleted_at', 'status_changed_at'];

export function fuzzTarget(
  operation: Operation,
  example: { params: Record<string, string>; payload?: string },
): FuzzTarget {
  const json = operation.bodyTypes.includes('application/json');
  const of = (test: (q: Operation['query'][number]) => boolean) =>
    operation.query.filter(test).map((q) => q.name);
  return {
    operation,
    fields: json ? [...operation.bodyFields, ...READ_ONLY] : undefined,
    validPayload: example.payload,
    contentType: operation.bodyTypes[0],
    query: {
      ids: of((q) => q.type === 'integer' && q.name.endsWith('_id')),
      booleans: of((q) => q.type === 'boolean'),
      others: of((q) => q.type !== 'boolean' && !(q.type === 'integer' && q.name.endsWith('_id'))),
    },
    params: example.params,
  };
}
