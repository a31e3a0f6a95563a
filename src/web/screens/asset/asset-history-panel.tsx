// The History tab (SPEC section 4): events in state Requested are hidden unless they are a
// DEACTIVATION_REQUESTED (the machine keeps the visible list); the date column shows the
// effective or requested date, else the state name. On a narrow screen the table scrolls sideways
// in a wrapper that takes the focus, so the keyboard can scroll it too.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectHistory, type assetPageMachine } from '../../../../machines/asset-page';
import { eventTypeLabel, historyDateLabel } from '../../../domain/loan-history';
import { ASSET_PAGE_TEXTS } from '../../../domain/asset-texts';

export function AssetHistoryPanel({ asset }: { asset: ActorRefFrom<typeof assetPageMachine> }) {
  const events = useSelector(asset, selectHistory);
  const captionId = useId();
  if (events.length === 0) return <p className="p-8 text-center text-slate-600">{ASSET_PAGE_TEXTS.noHistory}</p>;
  return (
    // A group named by the caption: the tab panel around it is already the 'History' region.
    <div role="group" aria-labelledby={captionId} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full text-left text-sm">
        <caption id={captionId} className="sr-only">
          {ASSET_PAGE_TEXTS.history}
        </caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">
              Date
            </th>
            <th scope="col" className="px-4 py-2">
              Event
            </th>
            <th scope="col" className="px-4 py-2">
              Description
            </th>
            <th scope="col" className="px-4 py-2">
              State
            </th>
            <th scope="col" className="px-4 py-2">
              Participant
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {events.map((event) => (
            <tr key={event.id} className="align-top">
              <td className="px-4 py-3 whitespace-nowrap">{historyDateLabel(event)}</td>
              <td className="px-4 py-3">{eventTypeLabel(event.eventType)}</td>
              <td className="px-4 py-3">{event.eventDescription}</td>
              <td className="px-4 py-3">{event.state}</td>
              <td className="px-4 py-3">{event.participant?.participantName ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
