// The app-wide actors, created once at the root (app-providers.tsx) and reached through these
// contexts (ARCHITECTURE.md section 4). Named *ActorContext: a machine's data type keeps the
// name *Context (machines/session.ts SessionContext).
import { createActorContext } from '@xstate/react';
import { batchDownloadMachine } from '../../../machines/batch-download';
import { messageCountMachine } from '../../../machines/message-count';
import { navigationMachine } from '../../../machines/navigation';
import { sessionMachine } from '../../../machines/session';
import { toastsMachine } from '../../../machines/toasts';

export const SessionActorContext = createActorContext(sessionMachine);
export const ToastsActorContext = createActorContext(toastsMachine);
export const NavigationActorContext = createActorContext(navigationMachine);
/** Issue 6: the batch download of assignment documents (batch-download.tsx provides it). */
export const BatchDownloadActorContext = createActorContext(batchDownloadMachine);
/** Issue 7: the unread message count (message-count.tsx provides it; the messages screen sends it `messageCount.changed`). */
export const MessageCountActorContext = createActorContext(messageCountMachine);
