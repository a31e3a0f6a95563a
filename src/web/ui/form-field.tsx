// A labelled form control with its hint and error (SPEC section 5: required fields show an
// asterisk). The control gets its id, aria-required, aria-invalid and aria-describedby (hint and
// error) from here, so every field of every form is tied the same way.
import type { ReactNode } from 'react';

export interface ControlProps {
  readonly id: string;
  readonly 'aria-required'?: true;
  readonly 'aria-invalid'?: true;
  readonly 'aria-describedby'?: string;
}

export interface FormFieldProps {
  readonly id: string;
  readonly label: string;
  readonly required?: boolean;
  readonly hint?: string;
  readonly error?: string | undefined;
  readonly className?: string;
  readonly children: (control: ControlProps) => ReactNode;
}

export const CONTROL_CLASS =
  'h-10 w-full rounded-md border border-slate-400 bg-white px-3 text-sm text-slate-900 aria-[invalid=true]:border-red-700 disabled:bg-slate-100';

export function FormField({ id, label, required = false, hint, error, className = '', children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        )}
      </label>
      {children({
        id,
        ...(required ? { 'aria-required': true as const } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
