// Toast queue (SPEC section 9): at most 5 visible; each leaves after 6000 ms once visible,
// or when dismissed. Queued toasts show, and start their timer, as visible ones leave.
import { assertEvent, assign, enqueueActions, setup, type SnapshotFrom } from 'xstate';
import { MAX_VISIBLE_TOASTS, TOAST_TIMEOUT_MS } from '../src/domain/constants';

export type ToastVariant = 'success' | 'error' | 'info';
export interface Toast {
  readonly id: number;
  readonly variant: ToastVariant;
  readonly message: string;
}

export interface ToastsContext {
  readonly toasts: readonly Toast[];
  readonly nextId: number;
}

export type ToastsEvent =
  | { type: 'toast.show'; variant: ToastVariant; message: string }
  | { type: 'toast.dismiss'; id: number }
  | { type: 'toast.expire'; id: number };

/** A toast for the app's toasts actor, which machines reach as `system.get('toasts')` (machines/app-root.ts). */
export const toastShow = (variant: ToastVariant, message: string): ToastsEvent => ({ type: 'toast.show', variant, message });

export const visibleToasts = (context: ToastsContext): readonly Toast[] => context.toasts.slice(0, MAX_VISIBLE_TOASTS);

const removeToast = (context: ToastsContext, id: number): readonly Toast[] => context.toasts.filter((toast) => toast.id !== id);

export const toastsMachine = setup({
  types: { context: {} as ToastsContext, events: {} as ToastsEvent },
  delays: { toastTimeout: TOAST_TIMEOUT_MS },
  guards: {
    isKnownToast: ({ context, event }) => 'id' in event && context.toasts.some((toast) => toast.id === event.id),
    isLastToast: ({ context, event }) => 'id' in event && context.toasts.length === 1 && context.toasts[0]?.id === event.id,
  },
  actions: {
    addToast: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'toast.show');
      const toast: Toast = { id: context.nextId, variant: event.variant, message: event.message };
      enqueue.assign({ toasts: [...context.toasts, toast], nextId: context.nextId + 1 });
      if (context.toasts.length < MAX_VISIBLE_TOASTS) {
        enqueue.raise({ type: 'toast.expire', id: toast.id }, { delay: 'toastTimeout' });
      }
    }),
    removeToast: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['toast.dismiss', 'toast.expire']);
      const wasVisible = visibleToasts(context).some((toast) => toast.id === event.id);
      const remaining = removeToast(context, event.id);
      enqueue.assign({ toasts: remaining });
      // The toast that moves into the last visible slot starts its own timer now.
      const promoted = remaining[MAX_VISIBLE_TOASTS - 1];
      if (wasVisible && promoted && context.toasts.length > MAX_VISIBLE_TOASTS) {
        enqueue.raise({ type: 'toast.expire', id: promoted.id }, { delay: 'toastTimeout' });
      }
    }),
    clearToasts: assign({ toasts: [] }),
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1 },
  initial: 'empty',
  states: {
    empty: {
      on: { 'toast.show': { target: 'showing', actions: 'addToast' } },
    },
    showing: {
      on: {
        'toast.show': { actions: 'addToast' },
        'toast.dismiss': [
          { guard: 'isLastToast', target: 'empty', actions: 'clearToasts' },
          { guard: 'isKnownToast', actions: 'removeToast' },
        ],
        'toast.expire': [
          { guard: 'isLastToast', target: 'empty', actions: 'clearToasts' },
          { guard: 'isKnownToast', actions: 'removeToast' },
        ],
      },
    },
  },
});

export type ToastsSnapshot = SnapshotFrom<typeof toastsMachine>;
/** The toasts on screen (the rest wait in the queue). */
export const selectVisibleToasts = (snapshot: ToastsSnapshot): readonly Toast[] => visibleToasts(snapshot.context);
