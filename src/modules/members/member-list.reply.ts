/**
 * The member list's page, in id order or in the order `sort` names: the
 * cursor a sorted page issues carries the sort, its last value and id
 * (core/paging.ts), and is read back only under the same sort.
 */

import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import {
  DEFAULT_PAGE_SIZE,
  decodeSortedCursor,
  encodeSortedCursor,
  readPageRequest,
} from '../../core/paging.js';
import type { Db } from '../../db/database.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { type MemberListQuery, memberFilterOf, memberRepresentation } from './member.schemas.js';
import { type MemberSort, parseSort, sortValueOf } from './member-list-sort.js';
import { listMembersOfFacility } from './member-read.service.js';

export function sendMemberList(
  reply: FastifyReply,
  db: Db,
  facilityId: number,
  query: Static<typeof MemberListQuery>,
  pageMaxBytes: number,
): Promise<FastifyReply> {
  const { sort, cursor, limit } = query;
  if (sort === undefined) {
    const filter = memberFilterOf(query);
    const page = { ...readPageRequest(query), maxBytes: pageMaxBytes };
    return sendPage(reply, 'members', page, memberRepresentation, (read) =>
      listMembersOfFacility(db, facilityId, filter, read),
    );
  }
  const sorted: MemberSort = {
    ...parseSort(sort),
    after: cursor === undefined ? undefined : decodeSortedCursor(cursor, sort),
  };
  const filter = { ...memberFilterOf(query), sort: sorted };
  const page = { limit: limit ?? DEFAULT_PAGE_SIZE, afterId: 0, maxBytes: pageMaxBytes };
  return sendPage(
    reply,
    'members',
    page,
    memberRepresentation,
    (read) => listMembersOfFacility(db, facilityId, filter, read),
    (member) => encodeSortedCursor(sort, sortValueOf(member, sorted.field), member.id),
  );
}
