// SPEC texts of the asset screens (the list, pools, the asset page, its documents), apart from
// texts.ts: they load with those screens, not with the app's first download.

import { MIN_SEARCH_CHARACTERS } from './asset-search';

/** The asset page (SPEC section 2): tabs Details, History and Documents. */
export const ASSET_PAGE_TEXTS = {
  title: 'Asset',
  tabsLabel: 'Asset sections',
  details: 'Details',
  history: 'History',
  documents: 'Documents',
  activity: 'Activity',
  loading: 'Loading the asset…',
  notFoundTitle: 'Asset not found',
  notFoundBody: 'No asset with this id is registered to your organization.',
  /** The asset of a message whose role has since moved on: the server's 410 says so. */
  noLongerHeldTitle: 'No longer your asset',
  noLongerHeldBody: 'Your organization no longer holds a role on this asset, so its details are not shown.',
  failed: 'The asset could not be loaded.',
  noHistory: 'No history for this asset yet.',
  backToAssets: 'Back to assets',
  parties: 'Parties',
  noParties: 'No parties are recorded for this asset.',
} as const;

/** The Documents tab's viewer (SPEC sections 2 and 8). */
export const DOCUMENT_TEXTS = {
  unableToLoadPdf: 'Unable to load PDF',
  // Documents (document viewer helper): SPEC gives the text above; these are ours.
  listLabel: 'Documents of this asset',
  loadingList: 'Loading documents…',
  listFailed: 'The documents could not be loaded.',
  noDocuments: 'This asset has no deeds, assignments, releases or eNote to show.',
  chooseDocument: 'Choose a document to view it here.',
  loadingDocument: 'Loading PDF…',
  viewerLabel: 'Document viewer',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageNumber: 'Page number',
  pageOf: (pageCount: number) => `of ${pageCount}`,
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetZoom: 'Reset zoom',
  zoomLevel: (zoom: number) => `${Math.round(zoom * 100)}%`,
  download: 'Download',
  sha256: 'SHA-256',
  pageImage: (page: number, pageCount: number) => `Page ${page} of ${pageCount}`,
  /** The server's answer (a 500) for a document whose stored content no longer matches its SHA-256. */
  integrityWithheld:
    'The stored content of this document no longer matches its SHA-256 hash: it is withheld rather than served. Contact support.',
} as const;

/** The pools screen (SPEC section 2). */
export const POOLS_TEXTS = {
  title: 'Pools',
  tableLabel: 'Completed pools',
  loading: 'Loading pools…',
  empty: 'No completed pools.',
  emptyLast30Days: 'No pools were completed in the last 30 days.',
  failed: 'The pools could not be loaded.',
  dateFilterLabel: 'Date completed',
  allDates: 'All dates',
} as const;

/** The asset table screens (SPEC sections 2, 8 and 9): /assets/assets and /assets/pool-assets/:poolId. */
export const ASSET_TEXTS = {
  title: 'Assets',
  assetsTab: 'Assets',
  poolsTab: 'Pools',
  assetListsNavigation: 'Asset lists',
  tableLabel: 'Assets',
  loading: 'Loading assets…',
  empty: 'No assets match these filters.',
  /** The role filter emptied: no list is asked for until a role is chosen again. */
  chooseRole: 'Choose at least one role to see assets.',
  poolEmpty: 'This pool holds no assets.',
  failed: 'The assets could not be loaded.',
  search: 'Search assets',
  searchHint: 'ULI, loan number, borrower name or property address',
  searchTooShort: `Type at least ${MIN_SEARCH_CHARACTERS} characters to search.`,
  roles: 'Roles',
  dateFilter: 'Last updated',
  allDates: 'Any time',
  filters: 'Asset filters',
  selectRow: (uli: string) => `Select asset ${uli}`,
  selectPage: 'Select all assets on this page',
  selectedCount: (count: number) => `${count} selected`,
  clearSelection: 'Clear selection',
  rowActions: (uli: string) => `Actions for asset ${uli}`,
  actionsColumn: 'Actions',
  viewDetails: 'View Details',
  viewDocuments: 'View Documents',
  deactivate: 'Deactivate',
  notApplicable: 'N/A',
  exportCsv: 'Export CSV',
  exportSelectedCsv: (count: number) => `Export ${count} selected to CSV`,
  exportingCsv: 'Preparing CSV…',
  csvFailed: 'Failed to download asset CSV',
  poolLoading: 'Loading the pool…',
  poolNotFoundTitle: 'Pool not found',
  poolNotFoundBody: 'No pool with this id is registered to your organization.',
  backToPools: 'Back to pools',
} as const;
