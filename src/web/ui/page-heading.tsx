import type { ReactNode } from 'react';

/** The page's h1; the shell moves focus here after each navigation. */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <h1 id="page-heading" tabIndex={-1} className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none">
      {children}
    </h1>
  );
}
