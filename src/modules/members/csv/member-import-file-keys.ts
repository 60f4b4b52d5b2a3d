import type { ErrorCode } from '../../../core/errors.js';

/**
 * Each email (ignoring case) and each external_id once in a file: a row that
 * repeats one of an earlier row fails as a second POST would, whatever the
 * earlier row did. So no two rows write one member, and what a row does
 * depends on the facility and not on how earlier rows fared, which a dry
 * run checked in rolled-back chunks could not see (docs/decisions.md).
 */
export class FileKeys {
  readonly #emails = new Set<string>();
  readonly #externalIds = new Set<string>();
  /** The keys seen since mark(): rewind() forgets them (a chunk whose rows run again). */
  #sinceMark: [Set<string>, string][] = [];

  mark(): void {
    this.#sinceMark = [];
  }

  rewind(): void {
    for (const [set, key] of this.#sinceMark) set.delete(key);
    this.#sinceMark = [];
  }

  #see(set: Set<string>, key: string | undefined): void {
    if (key === undefined || set.has(key)) return;
    set.add(key);
    this.#sinceMark.push([set, key]);
  }

  /** The row's repeated key, as the API words its conflict; then the row's keys count as seen. */
  repeatedIn(
    cells: Record<string, string>,
  ): { column: string; code: ErrorCode; message: string } | undefined {
    const email = cells.email?.trim().toLowerCase() || undefined;
    const externalId = cells.external_id?.trim() || undefined;
    let repeated: { column: string; code: ErrorCode; message: string } | undefined;
    if (email !== undefined && this.#emails.has(email)) {
      repeated = {
        column: 'email',
        code: 'member_email_conflict',
        message: `A member with email ${cells.email} already exists in this facility`,
      };
    } else if (externalId !== undefined && this.#externalIds.has(externalId)) {
      repeated = {
        column: 'external_id',
        code: 'member_external_id_conflict',
        message: `A member with external_id ${cells.external_id} already exists in this facility`,
      };
    }
    this.#see(this.#emails, email);
    this.#see(this.#externalIds, externalId);
    return repeated;
  }
}
