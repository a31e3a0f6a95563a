// The audit-log machine on its own: the draft applied as the list's filters (empty fields left
// out of the view), cleared, followed from the URL, and the export of the applied filters.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { auditLogMachine, filtersOf, selectAuditDraft, selectAuditList } from '../../machines/audit-log';
import { pagedListOf, type ListPage } from '../../machines/paged-list';
import { toastsMachine } from '../../machines/toasts';

const emptyPage: ListPage = { items: [], totalCount: 0 };

function start(downloadCsv = vi.fn(async (_filters: unknown) => ({ file: new Blob(['x']), fileName: 'audit-log.csv' }))) {
  const load = vi.fn(async (_view: unknown) => emptyPage);
  const saveFile = vi.fn();
  const logic = auditLogMachine.provide({
    actors: {
      list: pagedListOf(async (view) => load(view)),
      downloadCsv: fromPromise(async ({ input }) => downloadCsv(input.filters)),
    },
    actions: { saveFile: (_, params) => saveFile(params) },
  });
  const toasts = createActor(toastsMachine, { systemId: 'toasts' });
  const actor = createActor(logic, { input: { view: { page: 3, limit: 10, user: 'ops@home.test' } } });
  return { actor, load, saveFile, downloadCsv, toasts };
}

describe('filtersOf', () => {
  it('keeps the filter fields that hold text, trimmed', () => {
    expect(filtersOf({ page: 1, limit: 10, user: ' a@b ', entityId: '', from: undefined, targetType: 'document' })).toEqual({
      user: 'a@b',
      targetType: 'document',
    });
  });
});

describe('audit-log machine', () => {
  it('starts from the view the URL names: the draft and the filters are its filters', () => {
    const { actor } = start();
    actor.start();
    expect(selectAuditDraft(actor.getSnapshot())).toEqual({ user: 'ops@home.test' });
    expect(actor.getSnapshot().context.filters).toEqual({ user: 'ops@home.test' });
  });

  it('applies the draft as the list filters, back to page 1, and clears them', async () => {
    const { actor, load } = start();
    actor.start();
    actor.send({ type: 'draft.change', field: 'user', value: '' });
    actor.send({ type: 'draft.change', field: 'targetType', value: 'document' });
    expect(actor.getSnapshot().context.filters).toEqual({ user: 'ops@home.test' });
    actor.send({ type: 'filters.apply' });
    expect(actor.getSnapshot().context.filters).toEqual({ targetType: 'document' });
    const list = selectAuditList(actor.getSnapshot())!;
    await waitFor(list, (snapshot) => snapshot.context.view.page === 1);
    expect(filtersOf(list.getSnapshot().context.view)).toEqual({ targetType: 'document' });
    await vi.waitFor(() => expect(filtersOf(load.mock.calls.at(-1)![0] as object)).toEqual({ targetType: 'document' }));
    actor.send({ type: 'filters.clear' });
    expect(actor.getSnapshot().context).toMatchObject({ draft: {}, filters: {} });
    expect(filtersOf(list.getSnapshot().context.view)).toEqual({});
  });

  it('follows the filters of a view the URL names', () => {
    const { actor } = start();
    actor.start();
    actor.send({ type: 'list.synced', view: { page: 1, limit: 10, entityId: 'loan-1' } as never });
    expect(actor.getSnapshot().context).toMatchObject({ draft: { entityId: 'loan-1' }, filters: { entityId: 'loan-1' } });
  });

  it('exports what the applied filters match (not the draft), one at a time', async () => {
    const { actor, saveFile, downloadCsv } = start();
    actor.start();
    actor.send({ type: 'draft.change', field: 'user', value: 'someone else' });
    actor.send({ type: 'csv.export' });
    expect(actor.getSnapshot().matches('exporting')).toBe(true);
    actor.send({ type: 'csv.export' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(downloadCsv).toHaveBeenCalledTimes(1);
    expect(downloadCsv).toHaveBeenCalledWith({ user: 'ops@home.test' });
    expect(saveFile).toHaveBeenCalledWith({ file: expect.any(Blob), fileName: 'audit-log.csv' });
  });

  it('tells a failed export by a toast', async () => {
    const { actor, toasts, saveFile } = start(vi.fn(async () => Promise.reject(new Error('500'))));
    toasts.start();
    actor.start();
    actor.send({ type: 'csv.export' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(saveFile).not.toHaveBeenCalled();
  });
});
