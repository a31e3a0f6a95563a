// The derived asset status (SPEC section 4): a coloured dot AND its text label, never colour alone.
import { STATUS_INDICATOR_COLOR, type DerivedStatus } from '../../domain/loan';

const dotClasses = {
  grey: 'bg-slate-400',
  amber: 'bg-amber-500',
  red: 'bg-red-600',
  green: 'bg-green-600',
} as const;

export function StatusIndicator({ status }: { status: DerivedStatus | undefined }) {
  if (!status) return <span className="text-slate-500">—</span>;
  const color = STATUS_INDICATOR_COLOR[status];
  return (
    <span className="inline-flex items-center gap-2" data-indicator={color}>
      <span aria-hidden="true" className={`h-2.5 w-2.5 shrink-0 rounded-full ${dotClasses[color]}`} />
      <span className="truncate">{status}</span>
    </span>
  );
}
