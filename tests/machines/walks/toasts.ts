// The walk of the toasts machine: what its model-based test
// (tests/web/toasts-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import { MAX_VISIBLE_TOASTS } from '../../../src/domain/constants';
import type { toastsMachine } from '../../../machines/toasts';
import { selectVisibleToasts } from '../../../machines/toasts';
import type { WalkerOptions } from '../support/model-coverage';

export const MAX_IN_MODEL = MAX_VISIBLE_TOASTS + 1; // enough to queue one
export const messageOf = (id: number) => `Notice ${id}`;

export const walk: WalkerOptions<typeof toastsMachine> = {
  serializeState: (snapshot) => `${JSON.stringify(snapshot.value)}:${snapshot.context.toasts.length}`,
  events: (snapshot) => {
    const { toasts, nextId } = snapshot.context;
    const first = selectVisibleToasts(snapshot)[0];
    const last = selectVisibleToasts(snapshot).at(-1);
    return [
      ...(toasts.length < MAX_IN_MODEL ? [{ type: 'toast.show' as const, variant: 'info' as const, message: messageOf(nextId) }] : []),
      ...(first
        ? [
            { type: 'toast.expire' as const, id: first.id },
            { type: 'toast.dismiss' as const, id: first.id },
          ]
        : []),
      ...(last && last !== first ? [{ type: 'toast.dismiss' as const, id: last.id }] : []),
    ];
  },
};
