// The asset page's tabs (SPEC section 2): Details, History and Documents, and our Activity (its audit rows). Each tab is a route,
// so they are links in a labelled navigation; the current one carries aria-current="page".
import { Link } from 'react-router-dom';
import { APP_PATHS, type AssetTab } from '../../../domain/app-paths';
import { ASSET_PAGE_TEXTS } from '../../../domain/asset-texts';

const TABS: readonly AssetTab[] = ['details', 'history', 'documents', 'activity'];
export const tabPanelId = 'asset-tab-panel';

export function AssetTabs({ loanId, current }: { loanId: string; current: AssetTab }) {
  return (
    <nav aria-label={ASSET_PAGE_TEXTS.tabsLabel} className="border-b border-slate-200">
      <ul className="-mb-px flex gap-6">
        {TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={APP_PATHS.asset(loanId, tab)}
              aria-current={tab === current ? 'page' : undefined}
              className={`inline-block border-b-2 px-1 pb-2 text-sm font-semibold ${
                tab === current
                  ? 'border-brand-700 text-brand-900'
                  : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
              }`}
            >
              {ASSET_PAGE_TEXTS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
