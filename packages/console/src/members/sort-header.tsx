import type { MemberListQuery } from '@facility-admin/client';

export type MemberSort = NonNullable<MemberListQuery['sort']>;
type SortField = Exclude<MemberSort, `-${string}`>;

/** The sort a header's click asks for: its field ascending, or descending when it already is ascending. */
export function nextSort(current: MemberSort | '', field: SortField): MemberSort {
  return current === field ? (`-${field}` as MemberSort) : field;
}

interface Props {
  label: string;
  field: SortField;
  sort: MemberSort | '';
  onSort: (sort: MemberSort) => void;
}

/** A column header that sorts the list by its field; a second click turns the order around. */
export function SortHeader({ label, field, sort, onSort }: Props) {
  const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={direction}>
      <button type="button" class="sort-header" onClick={() => onSort(nextSort(sort, field))}>
        {label}
        <span aria-hidden="true" class="sort-mark">
          {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ' ↕'}
        </span>
      </button>
    </th>
  );
}
