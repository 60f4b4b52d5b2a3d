import type { MemberImportReport } from '@facility-admin/client';

/** What an import did, or (a dry run) would do: the counts, then each failing row. */
export function ImportReportView({ report, onError }: { report: MemberImportReport; onError: string }) {
  const { counts, errors, errors_omitted: omitted } = report;
  const items: [string, number][] = [
    ['Rows', counts.rows],
    [report.dry_run ? 'Would create' : 'Created', counts.created],
    [report.dry_run ? 'Would update' : 'Updated', counts.updated],
    ['Unchanged', counts.unchanged],
    [report.dry_run ? 'Failing' : 'Failed', counts.failed],
  ];
  const blocked = counts.failed > 0 && onError === 'abort';
  return (
    <div class="import-report">
      <dl class="counts">
        {items.map(([label, value]) => (
          <div key={label} class={label.startsWith('Fail') && value > 0 ? 'count failing' : 'count'}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {report.dry_run && blocked && (
        <p class="notice error">
          <strong>Nothing would be written:</strong> with “abort”, one failing row stops the whole import. Fix
          the rows below and check the file again, or choose “skip” to import the valid rows.
        </p>
      )}
      {report.dry_run && !blocked && counts.failed > 0 && (
        <p class="notice ok">
          With “skip”, the valid rows would be written and the failing rows below left out.
        </p>
      )}
      {report.dry_run && !blocked && counts.created + counts.updated === 0 && (
        <p class="notice ok">Nothing would change: there is nothing to import.</p>
      )}
      {!report.dry_run && (
        <p class={`notice ${report.written ? 'ok' : 'error'}`}>
          {report.written
            ? `Imported: ${counts.created} created, ${counts.updated} updated.`
            : 'Nothing was written.'}
        </p>
      )}
      {errors.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption>Rows that fail</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Line</th>
                <th scope="col">Column</th>
                <th scope="col">Code</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((error) => (
                <tr key={`${error.row}-${error.column}-${error.code}`}>
                  <td data-label="Row">{error.row}</td>
                  <td data-label="Line">{error.line}</td>
                  <td data-label="Column">{error.column ?? '—'}</td>
                  <td data-label="Code">
                    <code>{error.code}</code>
                  </td>
                  <td data-label="Message">{error.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {omitted > 0 && (
        <p class="muted">
          {omitted} more {omitted === 1 ? 'error' : 'errors'} not listed.
        </p>
      )}
    </div>
  );
}
