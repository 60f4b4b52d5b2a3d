/** A page of any list: one array of items and the cursor of the next page (null on the last). */
export type Page = { next_cursor: string | null };

/** The items of a page: the array beside `next_cursor`. */
export type ItemOf<P> = { [K in keyof P]: P[K] extends readonly (infer I)[] ? I : never }[keyof P];

/**
 * Every item of a list, in order, page after page, following `next_cursor`
 * until it is null. `listPage` gets the page that starts at `cursor`
 * (undefined for the first), with the same filters each time.
 */
export async function* paginate<P extends Page>(
  listPage: (cursor: string | undefined) => Promise<P>,
): AsyncGenerator<ItemOf<P>, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await listPage(cursor);
    const items = Object.values(page).find(Array.isArray) as ItemOf<P>[] | undefined;
    if (items === undefined) throw new TypeError('The page holds no list of items');
    yield* items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
