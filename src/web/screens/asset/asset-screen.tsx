// /assets/asset/:loanId/details, .../details/history and .../details/documents: one screen whose
// tab comes from the URL. The three routes render this same component, so switching tabs keeps
// the loaded asset; another loan id starts a new asset-page actor (keyed by the id). 'Back to
// assets' returns to the list view the asset was opened from (router location state), else the
// default list.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation, useMatch, useParams } from 'react-router-dom';
import { selectCanRequestDeactivation, selectIsNoLongerHeld, selectReturnTo, selectUli } from '../../../../machines/asset-page';
import { selectParticipantId } from '../../../../machines/session';
import { APP_PATHS, ROUTE_PATTERNS, type AssetTab } from '../../../domain/app-paths';
import { TEXTS } from '../../../domain/texts';
import { ASSET_PAGE_TEXTS } from '../../../domain/asset-texts';
import { DEACTIVATION_TEXTS } from '../../../domain/deactivation-texts';
import { SessionActorContext } from '../../app/actor-contexts';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { ASSET_LIST_VIEWS, returnPathOf } from '../assets/asset-table-parts';
import { AssetDetailsPanel } from './asset-details-panel';
import { AssetActivityPanel } from './asset-activity-panel';
import { AssetDocumentsPanel } from './asset-documents-panel';
import { AssetHistoryPanel } from './asset-history-panel';
import { AssetTabs, tabPanelId } from './asset-tabs';
import { assetPageActors } from './asset-actors';

function useAssetTab(): AssetTab {
  const history = useMatch(`/${ROUTE_PATTERNS.assetHistory}`);
  const documents = useMatch(`/${ROUTE_PATTERNS.assetDocuments}`);
  const activity = useMatch(`/${ROUTE_PATTERNS.assetActivity}`);
  return history ? 'history' : documents ? 'documents' : activity ? 'activity' : 'details';
}

export function AssetScreen() {
  const { loanId = '' } = useParams();
  const tab = useAssetTab();
  return <AssetPage key={loanId} loanId={loanId} tab={tab} />;
}

function AssetPage({ loanId, tab }: { loanId: string; tab: AssetTab }) {
  const services = useAppServices();
  const logic = useMemo(() => assetPageActors(services), [services]);
  const location = useLocation();
  // Read once per loan: the tab links do not carry the state, the machine keeps it across tabs.
  const asset = useActorRef(logic, {
    input: { loanId, returnTo: returnPathOf(location.state, ASSET_LIST_VIEWS) },
  });
  const backToAssets = useSelector(asset, selectReturnTo) ?? APP_PATHS.assets;
  const loading = useSelector(asset, (snapshot) => snapshot.hasTag('busy'));
  // The loaded asset stays on screen while it is loaded again after a change.
  const ready = useSelector(asset, (snapshot) => snapshot.hasTag('loaded'));
  const reloading = useSelector(asset, (snapshot) => snapshot.matches('reloading'));
  const notFound = useSelector(asset, (snapshot) => snapshot.matches('notFound'));
  const noLongerHeld = useSelector(asset, selectIsNoLongerHeld);
  const failed = useSelector(asset, (snapshot) => snapshot.matches('failed'));
  const uli = useSelector(asset, selectUli);
  const participantId = SessionActorContext.useSelector(selectParticipantId);
  const canDeactivate = useSelector(asset, (snapshot) => selectCanRequestDeactivation(snapshot, participantId));

  if (notFound || noLongerHeld) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeading>{noLongerHeld ? ASSET_PAGE_TEXTS.noLongerHeldTitle : ASSET_PAGE_TEXTS.notFoundTitle}</PageHeading>
        <p className="text-slate-700">{noLongerHeld ? ASSET_PAGE_TEXTS.noLongerHeldBody : ASSET_PAGE_TEXTS.notFoundBody}</p>
        <p>
          <Link className="font-medium text-brand-700 underline" to={backToAssets}>
            {ASSET_PAGE_TEXTS.backToAssets}
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={backToAssets}>
            {ASSET_PAGE_TEXTS.backToAssets}
          </Link>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <PageHeading>{ASSET_PAGE_TEXTS.title}</PageHeading>
          {/* The deactivation request, offered when this organization may ask for it now. */}
          {canDeactivate && (
            <Link
              className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
              to={APP_PATHS.deactivate(loanId)}
              state={{ returnTo: backToAssets }}
            >
              {DEACTIVATION_TEXTS.deactivateAsset}
            </Link>
          )}
        </div>
        {/* Same height before and after the asset arrives: no layout shift. */}
        <p className="min-h-6 font-mono text-sm break-all text-slate-700" data-testid="asset-uli">
          {uli ?? '\u00a0'}
        </p>
      </div>
      <AssetTabs loanId={loanId} current={tab} />
      <section id={tabPanelId} aria-labelledby="asset-tab-heading" aria-busy={reloading || undefined} className="min-h-64">
        <h2 id="asset-tab-heading" className="sr-only">
          {ASSET_PAGE_TEXTS[tab]}
        </h2>
        {loading && <StatusMessage>{ASSET_PAGE_TEXTS.loading}</StatusMessage>}
        {failed && (
          <div className="flex flex-col items-center gap-4 p-8">
            <p role="alert" className="text-red-900">
              {ASSET_PAGE_TEXTS.failed}
            </p>
            <button
              type="button"
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-600"
              onClick={() => asset.send({ type: 'asset.retry' })}
            >
              {TEXTS.tryAgain}
            </button>
          </div>
        )}
        {ready && tab === 'details' && <AssetDetailsPanel asset={asset} />}
        {ready && tab === 'history' && <AssetHistoryPanel asset={asset} />}
        {ready && tab === 'documents' && <AssetDocumentsPanel loanId={loanId} />}
        {ready && tab === 'activity' && <AssetActivityPanel loanId={loanId} />}
      </section>
    </div>
  );
}
