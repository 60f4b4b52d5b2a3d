import {
  type Api,
  type CreateOptions,
  idempotency,
  ifMatch,
  type Query,
  type WriteOptions,
} from './requests.js';
import { payloadOf, type Versioned, versioned } from './results.js';
import type {
  ApiKeyCreate,
  FacilityCreate,
  FacilityUpdate,
  LinkSignIn,
  PasswordChange,
  PasswordResetRequest,
  SignIn,
  StaffInvite,
  StaffUpdate,
} from './schema.js';

export type FacilityListQuery = Query<'listFacilities'>;
export type StaffListQuery = Query<'listStaff'>;
export type ApiKeyListQuery = Query<'listApiKeys'>;

const facilityPath = (facility_id: number) => ({ path: { facility_id } });
const staffPath = (staff_user_id: number) => ({ path: { staff_user_id } });

/** The facilities, by name: those the caller may reach. */
export function facilityOperations(api: Api) {
  return {
    list: async (query: FacilityListQuery = {}) =>
      payloadOf(await api.GET('/admin/facilities', { params: { query } })),
    get: async (facilityId: number) =>
      versioned(await api.GET('/admin/facilities/{facility_id}', { params: facilityPath(facilityId) })),
    create: async (body: FacilityCreate, create?: CreateOptions) =>
      versioned(await api.POST('/admin/facilities', { params: { header: idempotency(create) }, body })),
    update: async (facilityId: number, body: FacilityUpdate, write?: WriteOptions) =>
      versioned(
        await api.PATCH('/admin/facilities/{facility_id}', {
          params: { ...facilityPath(facilityId), header: ifMatch(write) },
          body,
        }),
      ),
  };
}

/** Staff users: people who sign in to the console, with their roles. */
export function staffOperations(api: Api) {
  return {
    list: async (query: StaffListQuery = {}) =>
      payloadOf(await api.GET('/admin/staff', { params: { query } })),
    get: async (staffUserId: number) =>
      versioned(await api.GET('/admin/staff/{staff_user_id}', { params: staffPath(staffUserId) })),
    /** The answer's `invitation.url` is the link to pass on when it was not e-mailed. */
    invite: async (body: StaffInvite) => versioned(await api.POST('/admin/staff', { body })),
    update: async (staffUserId: number, body: StaffUpdate, write?: WriteOptions) =>
      versioned(
        await api.PATCH('/admin/staff/{staff_user_id}', {
          params: { ...staffPath(staffUserId), header: ifMatch(write) },
          body,
        }),
      ),
    resendInvitation: async (staffUserId: number) =>
      payloadOf(
        await api.POST('/admin/staff/{staff_user_id}/invitation', { params: staffPath(staffUserId) }),
      ),
    sendPasswordReset: async (staffUserId: number) =>
      payloadOf(
        await api.POST('/admin/staff/{staff_user_id}/password-reset', { params: staffPath(staffUserId) }),
      ),
  };
}

/** API keys for integrations: the secret is in the answer that created it, never again. */
export function apiKeyOperations(api: Api) {
  return {
    list: async (query: ApiKeyListQuery = {}) =>
      payloadOf(await api.GET('/admin/api-keys', { params: { query } })),
    create: async (body: ApiKeyCreate) => payloadOf(await api.POST('/admin/api-keys', { body })),
    revoke: async (apiKeyId: number): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/api-keys/{api_key_id}', { params: { path: { api_key_id: apiKeyId } } }),
      );
    },
  };
}

/** The caller, and a person's sign-in to the console (a session cookie, sent by the browser). */
export function sessionOperations(api: Api) {
  return {
    /** Who the caller is: a key or a person, with their roles and what each allows. */
    get: async () => payloadOf(await api.GET('/admin/session', {})),
    /** How people may sign in: always a password; an identity provider when one is set up. */
    options: async () => payloadOf(await api.GET('/admin/sign-in-options', {})),
    signIn: async (body: SignIn) => payloadOf(await api.POST('/admin/session', { body })),
    /** Uses an invitation, a password reset or the first owner's link (its `token`). */
    signInWithLink: async (body: LinkSignIn) => payloadOf(await api.POST('/admin/session/link', { body })),
    signOut: async (): Promise<void> => {
      payloadOf(await api.DELETE('/admin/session', {}));
    },
    signOutEverywhere: async (): Promise<void> => {
      payloadOf(await api.POST('/admin/session/sign-out-everywhere', {}));
    },
    /** A person's own: the other sessions end, this one is renewed (the browser gets the new cookie). */
    changePassword: async (body: PasswordChange): Promise<void> => {
      payloadOf(await api.PUT('/admin/session/password', { body }));
    },
    /** A person's sessions, newest first; `current` is this one. */
    listMine: async () => payloadOf(await api.GET('/admin/session/sessions', {})),
    endMine: async (sessionId: number): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/session/sessions/{session_id}', {
          params: { path: { session_id: sessionId } },
        }),
      );
    },
    /** "Forgot password": 202 whatever the e-mail; a link is e-mailed to an active person (SMTP_URL set). */
    requestPasswordReset: async (body: PasswordResetRequest): Promise<void> => {
      payloadOf(await api.POST('/admin/session/password-reset', { body }));
    },
  };
}

export type { Versioned };
