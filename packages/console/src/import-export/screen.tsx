import { useFacility } from '../context';
import { ScreenTitle } from '../ui';
import { ExportForm } from './export';
import { ImportForm } from './import';

/** #/f/1/import: members in bulk. Importing is for admin keys; anyone may export. */
export function ImportExportScreen() {
  const { canWrite } = useFacility();
  return (
    <section class="import-export">
      <ScreenTitle>Import &amp; export</ScreenTitle>
      {canWrite ? (
        <ImportForm />
      ) : (
        <p class="notice">Importing members needs an admin key; this key may only read, so it can export.</p>
      )}
      <ExportForm />
    </section>
  );
}
