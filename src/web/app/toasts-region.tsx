// The notifications region: the visible toasts of machines/toasts.ts, each with its dismiss button.
import { selectVisibleToasts } from '../../../machines/toasts';
import { Icon } from '../ui/icons';
import { ToastsActorContext } from './actor-contexts';

const variantClasses = {
  success: 'border-green-600 bg-green-50 text-green-900',
  error: 'border-red-600 bg-red-50 text-red-900',
  info: 'border-brand-600 bg-brand-50 text-brand-900',
} as const;

export function ToastsRegion() {
  const toasts = ToastsActorContext.useSelector(selectVisibleToasts);
  const toastsRef = ToastsActorContext.useActorRef();
  return (
    // Phones: the full width less a 1rem margin each side; wider screens: a column at the bottom right.
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col gap-2 sm:left-auto sm:w-full sm:max-w-sm"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.variant === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 p-4 shadow-lg ${variantClasses[toast.variant]}`}
        >
          <p className="min-w-0 flex-1 text-sm font-medium break-words">{toast.message}</p>
          <button
            type="button"
            className="rounded p-1 hover:bg-black/5"
            aria-label="Dismiss notification"
            onClick={() => toastsRef.send({ type: 'toast.dismiss', id: toast.id })}
          >
            <Icon name="close" className="h-4 w-4" />
          </button>
        </div>
      ))}
    </section>
  );
}
