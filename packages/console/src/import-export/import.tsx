import type { MemberImport, MemberImportQuery, MemberImportReport } from '@facility-admin/client';
import { useRef, useState } from 'preact/hooks';
import { newIdempotencyKey } from '../api';
import { useFacility } from '../context';
import { ProblemNotice } from '../ui';
import { ImportProgress } from './progress';
import { ImportReportView } from './report';

type MatchBy = NonNullable<MemberImportQuery['match_by']>;
type OnError = NonNullable<MemberImportQuery['on_error']>;

const MATCH_BY: [MatchBy, string, string][] = [
  ['external_id', 'External id', 'A row updates the member with its external_id; other rows create members.'],
  ['email', 'Email', 'A row updates the member with its email (any case); other rows create members.'],
  ['none', 'None', 'Every row creates a new member.'],
];
const ON_ERROR: [OnError, string, string][] = [
  ['abort', 'Abort', 'Nothing is written if any row fails.'],
  ['skip', 'Skip', 'The valid rows are written; the failing rows are left out.'],
];

/** A dry run of one file with one set of options, and the key its real run will send. */
interface Checked {
  identity: string;
  report: MemberImportReport;
  importKey: string;
}

type Step =
  | { state: 'idle' }
  | { state: 'busy'; what: string; job?: MemberImport }
  | { state: 'error'; error: unknown };

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
  const [step, setStep] = useState<Step>({ state: 'idle' });
  // Set at once (a state update is not): a double click sends one request.
  const busy = useRef(false);
  const identity = `${fileVersion}|${matchBy}|${onError}`;
  const current = checked?.identity === identity ? checked : null;
  const writes = current ? current.report.counts.created + current.report.counts.updated : 0;
  const blocked = !current || (onError === 'abort' && current.report.counts.failed > 0) || writes === 0;

  // The job's progress, as the client reads it while it runs.
  const run = async (what: string, send: (onProgress: (job: MemberImport) => void) => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    setStep({ state: 'busy', what });
    try {
      await send((job) => setStep({ state: 'busy', what, job }));
      setStep({ state: 'idle' });
    } catch (error) {
      setStep({ state: 'error', error });
    } finally {
      busy.current = false;
    }
  };
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
            setStep({ state: 'idle' });
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
          options={MATCH_BY}
          value={matchBy}
          onChange={setMatchBy}
        />
        <Choices
          legend="When a row fails"
          name="on_error"
          options={ON_ERROR}
          value={onError}
          onChange={setOnError}
        />
      </div>
      <div class="actions wrap">
        <button type="button" disabled={!file || step.state === 'busy'} onClick={check}>
          Check file
        </button>
        <button type="button" class="primary" disabled={blocked || step.state === 'busy'} onClick={importNow}>
          Import
        </button>
      </div>
      <p class="status-line" role="status">
        {step.state === 'busy'
          ? step.what
          : current
            ? `Checked: ${summary(current.report)}`
            : result
              ? `Imported: ${summary(result)}`
              : file
                ? 'Check the file to see what it would do; Import is offered after that.'
                : 'Choose a file.'}
      </p>
      {step.state === 'busy' && step.job && <ImportProgress job={step.job} />}
      {step.state === 'error' && <ProblemNotice error={step.error} />}
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
  options: [T, string, string][];
  value: T;
  onChange: (value: T) => void;
}

/** A group of radio buttons, each with its one-line explanation. */
function Choices<T extends string>({ legend, name, options, value, onChange }: ChoicesProps<T>) {
  return (
    <fieldset class="choices">
      <legend>{legend}</legend>
      {options.map(([option, label, hint]) => (
        <label key={option} class="choice">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
          />
          <span>
            <strong>{label}</strong>
            <span class="hint">{hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
