import type { Member } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from '../context';
import { fullName } from '../members/status';
import { Badge, Empty, ProblemNotice } from '../ui';

/** Matches offered at once: a name narrows fast, and the desk picks by sight. */
const MATCHES = 8;

/**
 * When the card is at home: the members list's search (`q`: name, email,
 * phone), and a pick asks for a decision by member id.
 */
export function MemberSearch({ onPick }: { onPick: (member: Member) => void }) {
  const { client, facilityId } = useFacility();
  const [text, setText] = useState('');
  const [found, setFound] = useState<Member[] | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const search = async (event: Event) => {
    event.preventDefault();
    const q = text.trim();
    if (!q) return;
    setBusy(true);
    setError(undefined);
    try {
      setFound((await client.members.list(facilityId, { q, limit: MATCHES })).members);
    } catch (caught) {
      setError(caught);
      setFound(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="member-search" aria-labelledby="member-search-heading">
      <h2 id="member-search-heading">No card? Find the member</h2>
      <form class="search-row" onSubmit={search}>
        <label for="member-search" class="visually-hidden">
          Name, email or phone
        </label>
        <input
          id="member-search"
          type="search"
          placeholder="Name, email or phone"
          autoComplete="off"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {error !== undefined && <ProblemNotice error={error} />}
      {found && found.length === 0 && <Empty>No member matches “{text.trim()}”.</Empty>}
      {found && found.length > 0 && (
        <ul class="matches" aria-label="Matching members">
          {found.map((member) => (
            <li key={member.id}>
              <button
                type="button"
                class="match"
                onClick={() => {
                  setFound(null);
                  setText('');
                  onPick(member);
                }}
              >
                <span class="match-name">Check in {fullName(member)}</span>
                <Badge value={member.status} />
                {member.email && <span class="muted small">{member.email}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
