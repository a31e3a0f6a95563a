// One message of the list: its checkbox, read and archived marks (text, not colour alone), the
// relative time, the text shortened at 150 characters with Read more / Show less, the link to
// what it points to, its single actions, and Confirm / Reject or the answer given. A message no
// one has acted on shows the listed data (no actor, nothing to subscribe to); once acted on, its
// message actor (machines/message.ts) says what it shows. The row only sends events.
import { shallowEqual } from '@xstate/react';
import { useCallback, useLayoutEffect, useRef, useSyncExternalStore, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  messageRowStateOf,
  messageTargetPath,
  selectRowState,
  type MessageActorRef,
  type MessageRowState,
} from '../../../../machines/message';
import type { MessageUserEvent } from '../../../../machines/messages';
import type { Message } from '../../../contract/messages';
import { formatDateTime, formatRelativeTime } from '../../../domain/format';
import { MESSAGES_TEXTS as T, messagePreview } from '../../../domain/messages';

const actionButton =
  'inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 aria-busy:opacity-70';
const answerButton = 'inline-flex h-8 items-center rounded-md px-3 text-sm font-semibold text-white aria-busy:opacity-70';

/** The DOM id of a message's row (focus returns to rows after actions). */
export const messageRowId = (uuid: string): string => `message-row-${uuid}`;

interface MessageRowProps {
  readonly message: Message;
  /** The message's actor, once the user has acted on it. */
  readonly messageRef: MessageActorRef | undefined;
  readonly selected: boolean;
  readonly onToggleSelected: (uuid: string) => void;
  /** A control of the row: the messages machine hands it to the message's actor. */
  readonly onAct: (message: Message, event: MessageUserEvent) => void;
  readonly now: Date;
}

/**
 * What the row shows: the listed message's flags, or its actor's states once it has one. One
 * component either way, so the control the user just used keeps the focus when the actor comes.
 */
function useRowState(message: Message, messageRef: MessageActorRef | undefined): MessageRowState {
  const shown = useRef<MessageRowState | null>(null);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = messageRef?.subscribe(onChange);
      return () => subscription?.unsubscribe();
    },
    [messageRef],
  );
  const read = () => {
    const next = messageRef ? selectRowState(messageRef.getSnapshot()) : messageRowStateOf(message);
    if (shown.current === null || !shallowEqual(shown.current, next)) shown.current = next;
    return shown.current;
  };
  return useSyncExternalStore(subscribe, read);
}

export function MessageRow({ message, messageRef, selected, onToggleSelected, onAct, now }: MessageRowProps) {
  const state = useRowState(message, messageRef);
  // Confirm and Reject give way to the answer the user just gave: the focus they held moves to
  // it. Only then: an answer that was there already never takes the focus (nor scrolls to it).
  const answerRef = useRef<HTMLParagraphElement>(null);
  const answering = useRef(false);
  useLayoutEffect(() => {
    if (state.confirming || state.rejecting) answering.current = true;
    else if (answering.current && state.answer !== null) {
      answering.current = false;
      if (document.activeElement === document.body) answerRef.current?.focus();
    } else answering.current = false;
  }, [state.confirming, state.rejecting, state.answer]);
  const { read, archived, answer, answerable, expanded, opening, marking, archiving, confirming, rejecting } = state;
  const { uuid, created, messageData } = message;
  const preview = messagePreview(messageData.message);
  const targetPath = messageTargetPath(message);
  const textId = `message-text-${uuid}`;
  const send = (type: MessageUserEvent['type']) => onAct(message, { type } as MessageUserEvent);

  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window opens as the browser does; here, the message is marked read first.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    send('message.open');
  };

  return (
    <li
      id={messageRowId(uuid)}
      data-uuid={uuid}
      tabIndex={-1}
      className={`flex gap-3 border-b border-slate-100 px-4 py-3 last:border-b-0 focus:outline-2 focus:outline-brand-600 ${
        read ? 'bg-white' : 'border-l-4 border-l-brand-600 bg-brand-50/40'
      } ${selected ? 'bg-brand-50' : ''}`}
    >
      <div className="pt-1">
        <input type="checkbox" aria-label={T.selectOne(preview.text)} checked={selected} onChange={() => onToggleSelected(uuid)} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {read ? (
            <span className="sr-only">{T.read}</span>
          ) : (
            <span className="inline-flex items-center gap-1 rounded-full bg-brand-700 px-2 py-0.5 font-semibold text-white">
              <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-white" />
              {T.unread}
            </span>
          )}
          {archived && (
            <span className="inline-flex items-center rounded-full border border-slate-400 px-2 py-0.5 font-medium text-slate-700">
              {T.archivedBadge}
            </span>
          )}
          <time dateTime={created} title={formatDateTime(created)} className="text-slate-600">
            {formatRelativeTime(created, now)}
          </time>
        </div>
        <p id={textId} className={`text-sm break-words text-slate-900 ${read ? 'font-normal' : 'font-semibold'}`}>
          {expanded ? messageData.message : preview.text}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {preview.shortened && (
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={textId}
              className="text-sm font-medium text-brand-700 underline"
              onClick={() => send(expanded ? 'message.collapse' : 'message.expand')}
            >
              {expanded ? T.readLess : T.readMore}
            </button>
          )}
          {targetPath && (
            <Link
              to={targetPath}
              onClick={open}
              aria-describedby={textId}
              aria-busy={opening}
              className="text-sm font-medium text-brand-700 underline aria-busy:opacity-70"
            >
              {message.targetType === 'POOL' ? T.openPool : message.targetType === 'RELATIONSHIP' ? T.openPartner : T.openAsset}
            </Link>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {/* One button each, its label following the state: the focus stays on it. */}
          <button
            type="button"
            className={actionButton}
            aria-describedby={textId}
            aria-busy={marking}
            onClick={() => send(read ? 'message.markUnread' : 'message.markRead')}
          >
            {read ? T.markUnread : T.markRead}
          </button>
          <button
            type="button"
            className={actionButton}
            aria-describedby={textId}
            aria-busy={archiving}
            onClick={() => send(archived ? 'message.unarchive' : 'message.archive')}
          >
            {archived ? T.unarchive : T.archive}
          </button>
          {answerable && (
            <>
              <button
                type="button"
                className={`${answerButton} bg-emerald-700 hover:bg-emerald-800`}
                aria-describedby={textId}
                aria-busy={confirming}
                onClick={() => send('message.confirm')}
              >
                {T.confirm}
              </button>
              <button
                type="button"
                className={`${answerButton} bg-red-700 hover:bg-red-800`}
                aria-describedby={textId}
                aria-busy={rejecting}
                onClick={() => send('message.reject')}
              >
                {T.reject}
              </button>
            </>
          )}
          {answer !== null && (
            <p ref={answerRef} tabIndex={-1} className="text-sm font-semibold text-slate-800 focus:outline-2 focus:outline-brand-600">
              {answer ? T.answeredConfirmed : T.answeredRejected}
            </p>
          )}
        </div>
      </div>
    </li>
  );
}
