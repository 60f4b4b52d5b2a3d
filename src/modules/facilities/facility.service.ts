import { changedFields } from '../../core/changes.js';
import { AppError } from '../../core/errors.js';
import { etagOf, writeTimeAfter } from '../../core/etag.js';
import type { Principal } from '../../core/principal.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation, isUniqueViolationOf } from '../../db/errors.js';
import type { PageRead } from '../../db/page-rows.js';
import { type WriteTarget, writeExisting, writeNew } from '../../journal/write-path.js';
import { changePolicyIn } from '../policy/policy.service.js';
import {
  type FacilityChanges,
  type FacilityListFilter,
  findFacilityById,
  insertFacilityRowIfMissing,
  insertNewFacility,
  listFacilities,
  unnamedFacility,
  updateFacility,
} from './facility.repository.js';
import {
  type CreatedFacility,
  type Facility,
  type FacilityCreate,
  type FacilityUpdate,
  facilityRepresentation,
} from './facility.schemas.js';
import './facility.events.js';
import './facility.problems.js';

/** Every positive id is a facility (the contract): one never named reads as such. */
export async function getFacility(db: Executor, id: number): Promise<Facility> {
  return (await findFacilityById(db, id)) ?? unnamedFacility(id);
}

/** The facilities a caller may reach. */
export async function listFacilitiesFor(
  db: Executor,
  principal: Principal,
  status: FacilityListFilter['status'],
  page: PageRead,
): Promise<Facility[]> {
  return listFacilities(db, { status, reachable: principal.facilityIds }, page);
}

/** Tries of a create whose id another create took at the same moment. */
const CREATE_ATTEMPTS = 5;

export async function createFacility(
  db: Db,
  context: WriteContext<CreatedFacility>,
  body: FacilityCreate,
): Promise<Facility> {
  // A new facility is outside every facility-bound role: only a caller with every facility may make one.
  if (context.principal.facilityIds !== 'all') {
    throw new AppError('forbidden', 'Creating a facility needs a role for every facility');
  }
  const { timezone, currency, ...fields } = body;
  const values = { address: null, contact_email: null, phone: null, ...fields };
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeNew(db, context, async (write) => {
        const created = await insertNewFacility(write.trx, values, write.now.toISOString());
        write.record({
          facilityId: created.id,
          resourceType: 'facility',
          resourceId: created.id,
          action: 'create',
          before: null,
          after: created,
        });
        if (timezone !== undefined || currency !== undefined) {
          await changePolicyIn(write, created.id, { timezone, currency });
        }
        return created as CreatedFacility;
      });
    } catch (error) {
      if (isUniqueViolationOf(error, 'name')) throw nameConflict(values.name);
      if (!isUniqueViolation(error) || attempt === CREATE_ATTEMPTS) throw error;
    }
  }
}

/** Changes the fields sent; a facility never named gets its row first. `status` archives or brings back. */
export async function patchFacility(
  db: Db,
  context: WriteContext,
  id: number,
  patch: FacilityUpdate,
): Promise<Facility> {
  const { status, ...fields } = patch;
  return writeExisting(
    db,
    context,
    facilityTarget(id, context.now),
    async ({ trx, now, record }, current) => {
      const changes: FacilityChanges = { ...changedFields(current, fields) };
      if (status !== undefined && status !== current.status) {
        changes.archived_at = status === 'archived' ? now.toISOString() : null;
      }
      if (Object.keys(changes).length === 0) return current;
      const at = writeTimeAfter(current.updated_at ?? new Date(0).toISOString(), now.getTime());
      const updated = await updateFacility(trx, id, changes, at).catch((error: unknown) => {
        throw isUniqueViolationOf(error, 'name') ? nameConflict(changes.name ?? current.name ?? '') : error;
      });
      record({
        facilityId: id,
        resourceType: 'facility',
        resourceId: id,
        action: 'update',
        before: current,
        after: updated,
      });
      return updated;
    },
  );
}

function facilityTarget(id: number, now: Date): WriteTarget<Facility> {
  return {
    // A facility that had no row is changed from what its GET answered (unnamed, ETag version 0).
    lock: async (trx) =>
      (await insertFacilityRowIfMissing(trx, id, now.toISOString()))
        ? unnamedFacility(id)
        : findFacilityById(trx, id, { lock: true }),
    notFound: () => new AppError('internal_error', `Facility ${id} could not be given a row`),
    etag: (facility) => facilityEtag(facility),
  };
}

/** A facility never named has no time of change: its ETag is that of version 0. */
export function facilityEtag(facility: Facility): string {
  return etagOf(facilityRepresentation, facility.updated_at ?? 0);
}

function nameConflict(name: string): AppError {
  return new AppError('facility_name_conflict', `A facility named "${name}" already exists`);
}
