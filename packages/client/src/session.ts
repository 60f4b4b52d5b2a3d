import type { Api } from './requests.js';
import { payloadOf } from './results.js';

/** The caller: what the API key may do (its role and facilities), and whether authentication is off. */
export function sessionOperations(api: Api) {
  return {
    get: async () => payloadOf(await api.GET('/admin/session', {})),
  };
}
