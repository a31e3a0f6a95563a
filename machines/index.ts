// The registry of every statechart, keyed by kebab-case name (the diagram file names):
// the visualizer and the coverage tests read it.
import { addressAutocompleteMachine } from './address-autocomplete';
import { appRootMachine } from './app-root';
import { assetCountMachine } from './asset-count';
import { assetPageMachine } from './asset-page';
import { assetTableMachine } from './asset-table';
import { auditLogMachine } from './audit-log';
import { batchDownloadMachine } from './batch-download';
import { columnResizeMachine } from './column-resize';
import { columnVisibilityMachine } from './column-visibility';
import { csvExportMachine } from './csv-export';
import { deactivationMachine } from './deactivation';
import { documentViewerMachine } from './document-viewer';
import { messageMachine } from './message';
import { messageCountMachine } from './message-count';
import { messagesMachine } from './messages';
import { multiSelectMachine } from './multi-select';
import { navigationMachine } from './navigation';
import { organizationActivityMachine } from './organization-activity';
import { organizationDeactivationMachine } from './organization-deactivation';
import { organizationFormMachine } from './organization-form';
import { organizationProfileMachine } from './organization-profile';
import { organizationSwitcherMachine } from './organization-switcher';
import { organizationsListMachine } from './organizations-list';
import { pagedListMachine } from './paged-list';
import { partnerProfileMachine } from './partner-profile';
import { poolAssetsMachine } from './pool-assets';
import { roleTransferMachine } from './role-transfer';
import { servicerLookupMachine } from './servicer-lookup';
import { sessionMachine } from './session';
import { toastsMachine } from './toasts';
import { organizationUsersListMachine } from './organization-users-list';
import { userFormMachine } from './user-form';
import { userRemovalMachine } from './user-removal';
import { bannersMachine } from './banners';
import { bannerAuthoringMachine } from './banner-authoring';
import { reconciliationMachine } from './reconciliation';
import { securityFactorsMachine } from './security-factors';

export const machines = {
  // The root of the one actor system: the app-wide actors below run under it.
  'app-root': appRootMachine,
  session: sessionMachine,
  toasts: toastsMachine,
  navigation: navigationMachine,
  'organization-switcher': organizationSwitcherMachine,
  'asset-page': assetPageMachine,
  // The list every list screen configures (pools, a pool's assets, the assets, the messages).
  'paged-list': pagedListMachine,
  'asset-count': assetCountMachine,
  'asset-table': assetTableMachine,
  'pool-assets': poolAssetsMachine,
  'csv-export': csvExportMachine,
  'multi-select': multiSelectMachine,
  'column-resize': columnResizeMachine,
  'column-visibility': columnVisibilityMachine,
  // The deactivation request form.
  deactivation: deactivationMachine,
  // The app-wide batch download of assignment documents.
  'batch-download': batchDownloadMachine,
  // The asset page's document viewer.
  'document-viewer': documentViewerMachine,
  // The app-wide unread message count (navigation badge, dashboard tile).
  'message-count': messageCountMachine,
  // The messages screen (list, filter, selection, bulk) and its per-message actor.
  messages: messagesMachine,
  message: messageMachine,
  // The asset page's role transfer request.
  'role-transfer': roleTransferMachine,
  // The administration's organizations: the list, the add/edit form, deactivation and the audit log.
  'organizations-list': organizationsListMachine,
  'organization-form': organizationFormMachine,
  'organization-deactivation': organizationDeactivationMachine,
  'organization-activity': organizationActivityMachine,
  // An organization's users: the list with invitation actions, the add or edit form, the removal.
  'organization-users-list': organizationUsersListMachine,
  'user-form': userFormMachine,
  'user-removal': userRemovalMachine,
  // The public servicer lookup (form and results).
  'servicer-lookup': servicerLookupMachine,
  'address-autocomplete': addressAutocompleteMachine,
  // The organization's contact profile and the partner view.
  'organization-profile': organizationProfileMachine,
  'partner-profile': partnerProfileMachine,
  // The app-wide banners of the banner file, and registry staff's banners screen.
  banners: bannersMachine,
  'banner-authoring': bannerAuthoringMachine,
  // The registry staff's search of the whole audit log.
  'audit-log': auditLogMachine,
  // Reconciliation against a loan tape (the Reconcile screen of Assets).
  reconciliation: reconciliationMachine,
  // The profile's sign-in security factors.
  'security-factors': securityFactorsMachine,
} as const;

export type MachineName = keyof typeof machines;
