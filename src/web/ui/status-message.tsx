import type { ReactNode } from 'react';

/** A polite live region for loading and progress text. */
export function StatusMessage({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="p-8 text-center text-slate-600">
      {children}
    </p>
  );
}
