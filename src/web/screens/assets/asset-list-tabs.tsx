// The tabs of /assets/assets and /assets/pools (SPEC section 2): each tab is a route, so they
// are links in a labelled navigation, the current one marked with aria-current.
import { NavLink } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { ASSET_TEXTS } from '../../../domain/asset-texts';

const tabs = [
  { to: APP_PATHS.assets, label: ASSET_TEXTS.assetsTab },
  { to: APP_PATHS.pools, label: ASSET_TEXTS.poolsTab },
] as const;

export function AssetListTabs() {
  return (
    <nav aria-label={ASSET_TEXTS.assetListsNavigation} className="border-b border-slate-200">
      <ul className="-mb-px flex gap-6">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `inline-block border-b-2 px-1 pb-2 text-sm font-semibold ${
                  isActive
                    ? 'border-brand-700 text-brand-800'
                    : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
