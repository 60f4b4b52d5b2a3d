import {
  type MemberImport,
  type MemberImportQuery,
  type MemberImportReport,
  memberImportMatch_byValues,
  memberImportOn_errorValues,
} from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api';
import { useFacility } from '../context';
import { ProblemNotice } from '../ui';
import { useWrite } from '../write';
import { ImportProgress } from './progress';
import { ImportReportView } from './report';

type MatchBy = NonNullable<MemberImportQuery['match_by']>;
type OnError = NonNullable<MemberImportQuery['on_error']>;

/** Each choice's label and what it does: the choices are the document's, in its order. */
const MATCH_BY: Record<MatchBy, [string, string]> = {
  external_id: ['External id', 'A row updates the member with its external_id; other rows create members.'],
  email: ['Email', 'A row updates the member with its email (any case); other rows create members.'],
  none: ['None', 'Every row creates a new member.'],
};
const ON_ERROR: Record<OnError, [string, string]> = {
  abort: ['Abort', 'Nothing is written if any row fails.'],
  skip: ['Skip', 'The valid rows are written; the failing rows are left out.'],
};

/** A dry run of one file with one set of options, and the key its real run will send. */
interface Checked {
  identity: string;
  report: MemberImportReport;
  importKey: string;
}

/** What runs now, and the job's progress as the client reads it while it runs. */
interface Progress {
  what: string;
  job?: MemberImport;
}

/** Upload a CSV file, check it (a dry run), then import it with the options it was checked with. */
export function ImportForm() {
  const { client, facilityId } = useFacility();
  const [file, setFile] = useState<File | null>(null);
  // Each choice of a file is a new file, even with the same name: its dry run is needed again.
  const [fileVersion, setFileVersion] = useState(0);
  const [matchBy, setMatchBy] = useState<MatchBy>('external_id');
  const [onError, setOnError] = useState<OnError>('abort');
  const [checked, setChecked] = useState<Checked | null>(null);
  const [result, setResult] = useState<MemberImportReport | null>(null);
  const sending = useWrite();
  const [progress, setProgress] = useState<Progress>({ what: '' });
  const identity = `${fileVersion}|${matchBy}|${onError}`;
  const current = checked?.identity === identity ? checked : null;
  const writes = current ? current.report.counts.created + current.report.counts.updated : 0;
  const blocked = !current || (onError === 'abort' && current.report.counts.failed > 0) || writes === 0;

  const run = (what: string, send: (onProgress: (job: MemberImport) => void) => Promise<void>) =>
    sending.run(() => {
      setProgress({ what });
      return send((job) => setProgress({ what, job }));
    });
  const check = () =>
    run('Checking the file…', async (onProgress) => {
      if (!file) return;
      setResult(null);
      const query = { dry_run: true, match_by: matchBy, on_error: onError };
      const report = await client.importMembers(facilityId, file, query, { onProgress });
      setChecked({ identity, report, importKey: newIdempotencyKey() });
    });
  const importNow = () =>
    run('Importing…', async (onProgress) => {
      if (!file || !current) return;
      const query = { dry_run: false, match_by: matchBy, on_error: onError };
      const report = await client.importMembers(facilityId, file, query, {
        idempotencyKey: current.importKey,
        onProgress,
      });
      setResult(report);
      setChecked(null);
    });

  return (
    <section class="form" aria-labelledby="import-title">
      <h2 id="import-title">Import members</h2>
      <div class="field">
        <label for="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="import-file-hint"
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setFileVersion((n) => n + 1);
            setResult(null);
            sending.clear();
          }}
        />
        <p class="hint" id="import-file-hint">
          Up to 10 MiB. The first line names the columns: the member fields, such as first_name, last_name,
          email, plan_id, external_id.
        </p>
      </div>
      <div class="grid">
        <Choices
          legend="Match rows to members by"
          name="match_by"
          options={memberImportMatch_byValues}
          words={MATCH_BY}
          value={matchBy}
          onChange={setMatchBy}
        />
        <Choices
          legend="When a row fails"
          name="on_error"
          options={memberImportOn_errorValues}
          words={ON_ERROR}
          value={onError}
          onChange={setOnError}
        />
      </div>
      <div class="actions wrap">
        <button type="button" disabled={!file || sending.busy} onClick={check}>
          Check file
        </button>
        <button type="button" class="primary" disabled={blocked || sending.busy} onClick={importNow}>
          Import
        </button>
      </div>
      <p class="status-line" role="status">
        {sending.busy
          ? progress.what
          : current
            ? `Checked: ${summary(current.report)}`
            : result
              ? `Imported: ${summary(result)}`
              : file
                ? 'Check the file to see what it would do; Import is offered after that.'
                : 'Choose a file.'}
      </p>
      {sending.busy && progress.job && <ImportProgress job={progress.job} />}
      {sending.failure !== undefined && <ProblemNotice error={sending.failure} />}
      {current && (
        <>
          <h3>Check of {file?.name}</h3>
          <ImportReportView report={current.report} onError={onError} />
        </>
      )}
      {result && (
        <>
          <h3>Import of {file?.name}</h3>
          <ImportReportView report={result} onError={onError} />
        </>
      )}
    </section>
  );
}

function summary({ counts }: MemberImportReport): string {
  return `${counts.rows} rows, ${counts.failed} failing.`;
}

interface ChoicesProps<T extends string> {
  legend: string;
  name: string;
  options: readonly T[];
  words: Record<T, [label: string, hint: string]>;
  value: T;
  onChange: (value: T) => void;
}

/** A group of radio buttons, each with its one-line explanation. */
function Choices<T extends string>({ legend, name, options, words, value, onChange }: ChoicesProps<T>) {
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="choice">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
          />
          <span>
            <strong>{words[option][0]}</strong>
            <span class="hint">{words[option][1]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
