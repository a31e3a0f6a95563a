// Where a page's floating panels (row menus) open: a container inside the main landmark, so a
// screen reader's landmark navigation and axe's 'region' rule find them in the page they belong
// to, not loose at the end of <body>. Without a provider they open at the end of <body>.
import { Portal } from '@headlessui/react';
import { createContext, useContext, type MutableRefObject, type ReactNode } from 'react';

const PagePortalContext = createContext<MutableRefObject<HTMLElement | null> | null>(null);

export const PagePortalProvider = PagePortalContext.Provider;

/** Headless UI portals of `children` (anchored MenuItems, Popovers) open in the page's container. */
export function InPagePortal({ children }: { children: ReactNode }) {
  const target = useContext(PagePortalContext);
  // Portal.Group: 2.2's index exports no PortalGroup (the name its deprecation note points to).
  return target ? <Portal.Group target={target}>{children}</Portal.Group> : <>{children}</>;
}
