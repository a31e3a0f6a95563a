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
    <section aria-label="Notifications" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-full max-w-sm flex-col gap-2">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.variant === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 p-4 shadow-lg ${variantClasses[toast.variant]}`}
        >
          <p className="flex-1 text-sm font-medium">{toast.message}</p>
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
