// /assets/reconcile: upload a loan tape, follow its comparison, then the report (counts per kind,
// the differences a page at a time, optionally of one kind, and the CSV download). Renders the
// reconciliation machine's state and sends its events; the report's table is the shared list.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  differencesListInput,
  selectChosenFile,
  selectDownloadError,
  selectIsBusy,
  selectIsChoosing,
  selectIsDone,
  selectIsDownloading,
  selectIsLoading,
  selectIsUploading,
  selectLoadFailed,
  selectReconciliation,
  selectReconciliationError,
} from '../../../../machines/reconciliation';
import { selectHasFailed, selectListView } from '../../../../machines/paged-list';
import type { Difference, Reconciliation } from '../../../contract/reconciliation';
import { APP_PATHS } from '../../../domain/app-paths';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
import { TEXTS } from '../../../domain/texts';
import {
  DIFFERENCE_KIND_LABELS,
  DIFFERENCE_KINDS,
  RECONCILIATION_TEXTS,
  TAPE_FIELD_LABELS,
  type DifferenceKind,
} from '../../../domain/reconciliation';
import { useAppServices } from '../../app/services';
import { useScreenActor } from '../../app/screen-actor';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { CONTROL_CLASS } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { StatusMessage } from '../../ui/status-message';
import { differencesListLogic, reconciliationActors } from './reconciliation-actors';

const TAPE_INPUT_ID = 'reconciliation-tape';
const TAPE_ERROR_ID = 'reconciliation-tape-error';
const BUTTON = 'rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60';
const SECONDARY = 'rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:border-brand-600';

type DifferenceRow = Difference & { readonly id: string };

export function ReconciliationScreen() {
  const services = useAppServices();
  const logic = useMemo(() => reconciliationActors(services), [services]);
  const actor = useScreenActor(logic);
  const loading = useSelector(actor, selectIsLoading);
  const loadFailed = useSelector(actor, selectLoadFailed);
  const choosing = useSelector(actor, selectIsChoosing);
  const busy = useSelector(actor, selectIsBusy);
  const done = useSelector(actor, selectIsDone);
  const job = useSelector(actor, selectReconciliation);

  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{RECONCILIATION_TEXTS.heading}</PageHeading>
      <p className="max-w-3xl text-sm text-slate-700">{RECONCILIATION_TEXTS.intro}</p>
      <p>
        <Link to={APP_PATHS.assets} className="text-sm font-medium text-brand-700 underline">
          {ASSET_TEXTS.title}
        </Link>
      </p>
      {loading && <StatusMessage>{RECONCILIATION_TEXTS.loading}</StatusMessage>}
      {loadFailed && (
        <div role="alert" className="flex items-center gap-3 text-sm text-red-800">
          {RECONCILIATION_TEXTS.loadFailed}
          <button type="button" className={SECONDARY} onClick={() => actor.send({ type: 'load.retry' })}>
            {TEXTS.tryAgain}
          </button>
        </div>
      )}
      {choosing && <TapeForm actor={actor} />}
      {busy && <Progress actor={actor} job={job} />}
      {done && job && <Report actor={actor} job={job} />}
    </div>
  );
}

type ReconciliationRef = ReturnType<typeof useScreenActor<ReturnType<typeof reconciliationActors>>>;

function TapeForm({ actor }: { actor: ReconciliationRef }) {
  const error = useSelector(actor, selectReconciliationError);
  const file = useSelector(actor, selectChosenFile);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'tape.upload' });
    // The refusal is shown beside the field: take the reader there.
    setTimeout(() => {
      if (actor.getSnapshot().context.error) document.getElementById(TAPE_INPUT_ID)?.focus();
    }, 0);
  };
  return (
    <form onSubmit={submit} noValidate className="flex max-w-xl flex-col gap-3">
      <label htmlFor={TAPE_INPUT_ID} className="text-sm font-medium text-slate-700">
        {RECONCILIATION_TEXTS.fileLabel}
      </label>
      <input
        id={TAPE_INPUT_ID}
        type="file"
        accept=".csv,text/csv"
        className={CONTROL_CLASS}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? TAPE_ERROR_ID : undefined}
        onChange={(event) => actor.send({ type: 'tape.choose', file: event.currentTarget.files?.[0] ?? null })}
      />
      {error && (
        <p id={TAPE_ERROR_ID} role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className={BUTTON} aria-disabled={file ? undefined : true}>
          {RECONCILIATION_TEXTS.upload}
        </button>
      </div>
    </form>
  );
}

function Progress({ actor, job }: { actor: ReconciliationRef; job: Reconciliation | null }) {
  const uploading = useSelector(actor, selectIsUploading);
  const percent = job && job.total > 0 ? Math.floor((100 * Math.min(job.progress, job.total)) / job.total) : 0;
  const text = uploading
    ? RECONCILIATION_TEXTS.uploading
    : job?.status === 'RUNNING'
      ? RECONCILIATION_TEXTS.progressText(job.progress, job.total)
      : RECONCILIATION_TEXTS.queued;
  return (
    <div className="flex max-w-xl flex-col gap-2">
      <div
        role="progressbar"
        aria-label={RECONCILIATION_TEXTS.progressLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded bg-slate-200"
      >
        <div className="h-full bg-brand-700" style={{ width: `${percent}%` }} />
      </div>
      <p role="status" className="text-sm text-slate-700">
        {text}
      </p>
    </div>
  );
}

const helper = createDataTableColumnHelper<DifferenceRow>();
const text = (value: string | number | null) => (value === null || value === '' ? '—' : String(value));
const differenceColumns: readonly DataTableColumn<DifferenceRow>[] = [
  helper.accessor('kind', {
    id: 'kind',
    header: RECONCILIATION_TEXTS.columns.kind,
    size: 240,
    cell: ({ row }) => DIFFERENCE_KIND_LABELS[row.original.kind],
  }),
  helper.accessor('line', { id: 'line', header: RECONCILIATION_TEXTS.columns.line, size: 80, cell: ({ getValue }) => text(getValue()) }),
  helper.accessor('uli', { id: 'uli', header: RECONCILIATION_TEXTS.columns.uli, size: 260, cell: ({ getValue }) => text(getValue()) }),
  helper.accessor('loanNumber', {
    id: 'loanNumber',
    header: RECONCILIATION_TEXTS.columns.loanNumber,
    size: 160,
    cell: ({ getValue }) => text(getValue()),
  }),
  helper.accessor('field', {
    id: 'field',
    header: RECONCILIATION_TEXTS.columns.field,
    size: 140,
    cell: ({ row }) => (row.original.field ? TAPE_FIELD_LABELS[row.original.field] : '—'),
  }),
  helper.accessor('tapeValue', {
    id: 'tapeValue',
    header: RECONCILIATION_TEXTS.columns.tapeValue,
    size: 200,
    cell: ({ getValue }) => text(getValue()),
  }),
  helper.accessor('registryValue', {
    id: 'registryValue',
    header: RECONCILIATION_TEXTS.columns.registryValue,
    size: 200,
    cell: ({ row }) => text(row.original.registryValue ?? row.original.detail),
  }),
];

function Report({ actor, job }: { actor: ReconciliationRef; job: Reconciliation }) {
  const services = useAppServices();
  const downloading = useSelector(actor, selectIsDownloading);
  const downloadError = useSelector(actor, selectDownloadError);
  const counts = job.counts;
  const total = counts ? DIFFERENCE_KINDS.reduce((sum, kind) => sum + counts[kind], 0) : 0;
  return (
    <section aria-labelledby="reconciliation-summary" className="flex flex-col gap-4">
      <h2 id="reconciliation-summary" className="text-lg font-semibold text-slate-900">
        {RECONCILIATION_TEXTS.summaryHeading}: {job.fileName}
      </h2>
      <dl className="grid max-w-3xl grid-cols-2 gap-3 sm:grid-cols-4">
        {DIFFERENCE_KINDS.map((kind) => (
          <div key={kind} className="rounded-md border border-slate-200 p-3">
            <dt className="text-xs text-slate-600">{DIFFERENCE_KIND_LABELS[kind]}</dt>
            <dd className="text-xl font-semibold text-slate-900" data-kind={kind}>
              {(counts?.[kind] ?? 0).toLocaleString('en-US')}
            </dd>
          </div>
        ))}
      </dl>
      {total === 0 && <p role="status">{RECONCILIATION_TEXTS.noDifferences}</p>}
      <div className="flex flex-wrap gap-3">
        <button type="button" className={BUTTON} disabled={downloading} onClick={() => actor.send({ type: 'report.download' })}>
          {RECONCILIATION_TEXTS.download}
        </button>
        <button type="button" className={SECONDARY} onClick={() => actor.send({ type: 'tape.new' })}>
          {RECONCILIATION_TEXTS.newTape}
        </button>
      </div>
      {downloadError && (
        <p role="alert" className="text-sm text-red-800">
          {downloadError}
        </p>
      )}
      {total > 0 && <DifferencesList key={job.jobId} services={services} jobId={job.jobId} />}
    </section>
  );
}

function DifferencesList({ services, jobId }: { services: ReturnType<typeof useAppServices>; jobId: string }) {
  const logic = useMemo(() => differencesListLogic(services, jobId), [services, jobId]);
  const list = useActorRef(logic, { input: differencesListInput });
  const failed = useSelector(list, selectHasFailed);
  const kind = useSelector(list, (snapshot) => (selectListView(snapshot) as { kind?: string | null }).kind ?? '');
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <label htmlFor="reconciliation-kind" className="text-sm font-medium text-slate-700">
          {RECONCILIATION_TEXTS.kindFilter}
        </label>
        <select
          id="reconciliation-kind"
          value={kind}
          className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
          onChange={(event) =>
            list.send({ type: 'list.filter', filters: { kind: (event.currentTarget.value || null) as DifferenceKind | null } })
          }
        >
          <option value="">{RECONCILIATION_TEXTS.allKinds}</option>
          {DIFFERENCE_KINDS.map((option) => (
            <option key={option} value={option}>
              {DIFFERENCE_KIND_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      {failed ? (
        <div role="alert" className="flex items-center gap-3 text-sm text-red-800">
          {RECONCILIATION_TEXTS.loadFailed}
          <button type="button" className={SECONDARY} onClick={() => list.send({ type: 'list.reload' })}>
            {TEXTS.tryAgain}
          </button>
        </div>
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={RECONCILIATION_TEXTS.tableLabel}
            columns={differenceColumns}
            getRowId={(row) => row.id}
            loadingMessage={RECONCILIATION_TEXTS.loading}
            emptyMessage={RECONCILIATION_TEXTS.noRows}
          />
          <ListPagination list={list} idPrefix="reconciliation-pagination" />
        </div>
      )}
    </div>
  );
}
