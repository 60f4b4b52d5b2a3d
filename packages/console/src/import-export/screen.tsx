import { useFacility } from '../context';
import { ScreenTitle } from '../ui';
import { ExportForm } from './export';
import { ImportForm } from './import';

/** #/f/1/import: members in bulk. Importing needs permission `members.import`; anyone may export. */
export function ImportExportScreen() {
  const { can } = useFacility();
  const canWrite = can('members.import');
  return (
    <section class="import-export">
      <ScreenTitle>Import &amp; export</ScreenTitle>
      {canWrite ? (
        <ImportForm />
      ) : (
        <p class="notice">Importing members needs the manager or owner role here; you may export.</p>
      )}
      <ExportForm />
    </section>
  );
}
