import type { MemberExportQuery } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from '../context';
import { MemberFilterFields, NO_MEMBER_FILTER } from '../members/filter-fields';
import { usePlans } from '../members/list';
import { ProblemNotice } from '../ui';
import { useWrite } from '../write';

/** Saves bytes as a file: an object URL on a link with `download` (no navigation, nothing the CSP governs). */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The members with the list's filters, as the CSV file an import reads back. */
export function ExportForm() {
  const { client, facilityId } = useFacility();
  const plans = usePlans();
  const [draft, setDraft] = useState(NO_MEMBER_FILTER);
  const { q, status, role, planId, sportId } = draft;
  const exporting = useWrite();
  const sportInvalid = sportId !== '' && !/^[1-9]\d*$/.test(sportId);

  const download = () => {
    if (sportInvalid) return;
    const query: MemberExportQuery = {};
    if (q.trim()) query.q = q.trim();
    if (status) query.status = status;
    if (role) query.role = role;
    if (planId) query.plan_id = Number(planId);
    if (sportId) query.sport_id = Number(sportId);
    exporting.run(async () => {
      const stream = await client.exportMembers(facilityId, query);
      const blob = new Blob([await new Response(stream).arrayBuffer()], { type: 'text/csv' });
      const name = `members-facility-${facilityId}-${new Date().toISOString().slice(0, 10)}.csv`;
      save(blob, name);
      exporting.announce(`Saved ${name} (${formatSize(blob.size)}).`);
    });
  };

  return (
    <section class="form" aria-labelledby="export-title">
      <h2 id="export-title">Export members</h2>
      <p class="hint">The file has the members these filters find, and imports back as it is.</p>
      <div class="filters">
        <MemberFilterFields
          draft={draft}
          onChange={(change) => setDraft({ ...draft, ...change })}
          plans={plans.data ?? []}
          sportError={sportInvalid ? 'A whole number above 0' : undefined}
        />
      </div>
      <div class="actions wrap">
        <button type="button" class="primary" disabled={exporting.busy || sportInvalid} onClick={download}>
          Download CSV
        </button>
      </div>
      <p class="status-line" role="status">
        {exporting.busy ? 'Preparing the file…' : exporting.notice}
      </p>
      {exporting.failure !== undefined && <ProblemNotice error={exporting.failure} />}
      {plans.state === 'error' && <ProblemNotice error={plans.error} />}
    </section>
  );
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}
