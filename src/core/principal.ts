/** Who is calling: an API key's identity, role and facility scope. */
export interface Principal {
  /** 0 for ADMIN_API_KEY; null when authentication is off. */
  keyId: number | null;
  keyName: string;
  role: 'admin' | 'viewer';
  facilityIds: number[] | 'all';
}
