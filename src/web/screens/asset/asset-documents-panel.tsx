// The Documents tab: the route exists now; its PDF viewer arrives with the next issue.
import { ASSET_PAGE_TEXTS } from '../../../domain/texts';

export function AssetDocumentsPanel() {
  return <p className="rounded-md border border-slate-200 bg-slate-50 p-6 text-slate-700">{ASSET_PAGE_TEXTS.documentsComingSoon}</p>;
}
