// The notifications region: the visible toasts of machines/toasts.ts, each with its dismiss button.
// Screen readers skip a status message that arrives in a live region inserted with it, so the
// success and info toasts go into a polite live list that is always there; an error toast is an
// alert of its own, which screen readers announce when it is inserted.
import type { Toast } from '../../../machines/toasts';
import { selectVisibleToasts } from '../../../machines/toasts';
import { Icon } from '../ui/icons';
import { ToastsActorContext } from './actor-contexts';

const variantClasses = {
  success: 'border-green-600 bg-green-50 text-green-900',
  error: 'border-red-600 bg-red-50 text-red-900',
  info: 'border-brand-600 bg-brand-50 text-brand-900',
} as const;

/** One toast: an item of the polite list, or (an error) an alert of its own. */
function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const error = toast.variant === 'error';
  const Element = error ? 'div' : 'li';
  return (
    <Element
      role={error ? 'alert' : undefined}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 p-4 shadow-lg ${variantClasses[toast.variant]}`}
    >
      <p className="min-w-0 flex-1 text-sm font-medium break-words">{toast.message}</p>
      <button type="button" className="rounded p-1 hover:bg-black/5" aria-label="Dismiss notification" onClick={onDismiss}>
        <Icon name="close" className="h-4 w-4" />
      </button>
    </Element>
  );
}

export function ToastsRegion() {
  const toasts = ToastsActorContext.useSelector(selectVisibleToasts);
  const toastsRef = ToastsActorContext.useActorRef();
  const card = (toast: Toast) => (
    <ToastCard key={toast.id} toast={toast} onDismiss={() => toastsRef.send({ type: 'toast.dismiss', id: toast.id })} />
  );
  // Never display:none: a live region must be in the accessibility tree before its content comes.
  const list = 'flex flex-col gap-2';
  return (
    // Phones: the full width less a 1rem margin each side; wider screens: a column at the bottom right.
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col gap-2 sm:left-auto sm:w-full sm:max-w-sm"
    >
      {/* Mounted with the app, empty until a toast comes: its additions are read out, not its removals. */}
      <ul aria-live="polite" aria-relevant="additions text" className={list}>
        {toasts.filter((toast) => toast.variant !== 'error').map(card)}
      </ul>
      <div className={list}>{toasts.filter((toast) => toast.variant === 'error').map(card)}</div>
    </section>
  );
}
