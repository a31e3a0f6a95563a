// The app-wide actors' implementations (machines/app-root.ts), built from the platform and the
// services bound to the session: the session's own calls, the navigation's remembered state, the
// batch download's and the unread count's calls. Their toasts and their following of the
// organization are the machines' own (the actor system), so nothing here reaches another actor.
import { fromPromise } from 'xstate';
import { appActor, appRootMachine, type AppRootRef } from '../../../machines/app-root';
import { bannersMachine } from '../../../machines/banners';
import { batchDownloadMachine } from '../../../machines/batch-download';
import { messageCountMachine } from '../../../machines/message-count';
import { navigationMachine } from '../../../machines/navigation';
import { selectParticipantId, sessionMachine, type Account } from '../../../machines/session';
import type { RegistryApi } from '../../client/api';
import { zipFileName } from '../../contract/jobs';
import { APP_PATHS } from '../../domain/app-paths';
import { THIS_BANNER_APP } from '../../domain/banners';
import { BANNER_FILE } from '../config';
import { storedBannerDismissals, storedNavigationCollapsed, storedParticipant } from './browser-storage';
import type { AppPlatform, AppServices } from './services';

async function loadAccount(api: RegistryApi, participantId: string | null, signal?: AbortSignal): Promise<Account> {
  const me = await api.usersMe(participantId, signal);
  const organizations = await api.userParticipants(me.user.id, signal);
  return { user: me.user, organizations };
}

/**
 * The services over the platform, bound to the root actor that `root()` gives once it exists:
 * product calls act for the session's organization and report their failures to the session.
 */
export function createAppServices(platform: AppPlatform, navigate: (path: string) => void, root: () => AppRootRef): AppServices {
  const services: AppServices = {
    api: platform.createApi({
      participantId: () => selectParticipantId(appActor(root().system, 'session').getSnapshot()),
      productCallFailed: (error) => appActor(root().system, 'session').send({ type: 'session.callFailed', error }),
    }),
    startHostedLogin: (returnTo) => platform.startHostedLogin(returnTo),
    download: (file, fileName) => platform.download(file, fileName),
    navigate,
  };
  return services;
}

/** The root machine with every app-wide actor's implementations. */
export function provideAppRoot(platform: AppPlatform, services: AppServices) {
  // The session's own calls: they name the organization themselves and handle their own failures.
  const sessionApi = platform.createApi();
  const { api } = services;
  return appRootMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          fetchIdentity: fromPromise(({ signal }) => sessionApi.figureInfo(signal)),
          fetchAccount: fromPromise(({ input, signal }) => loadAccount(sessionApi, input.participantId, signal)),
          logout: fromPromise(({ signal }) => sessionApi.logout(signal)),
        },
        actions: {
          storeParticipant: (_, params) => storedParticipant.set(params.participantId),
          clearStoredParticipant: () => storedParticipant.set(null),
          navigateToDashboard: () => services.navigate(APP_PATHS.dashboard),
          startHostedLogin: (_, params) => platform.startHostedLogin(params.returnTo ?? undefined),
        },
      }),
      navigation: navigationMachine.provide({
        actions: { rememberCollapsed: (_, params) => storedNavigationCollapsed.set(params.collapsed) },
      }),
      batchDownload: batchDownloadMachine.provide({
        actors: {
          fetchJobs: fromPromise(({ signal }) => api.listJobs('BATCH_DOWNLOAD_AOMS', signal)),
          startJob: fromPromise(({ input, signal }) => api.startJob(input, signal)),
          downloadZip: fromPromise(async ({ input, signal }) => ({
            file: await api.documentsZip(input.jobId, signal),
            fileName: zipFileName(input),
          })),
        },
        actions: { saveFile: (_, { file, fileName }) => services.download(file, fileName) },
      }),
      messageCount: messageCountMachine.provide({
        actors: { fetchUnreadCount: fromPromise(({ signal }) => api.unreadMessageCount(signal)) },
      }),
      banners: bannersMachine.provide({
        actors: { loadBannerFile: fromPromise(({ signal }) => sessionApi.bannerFile(BANNER_FILE, signal)) },
        actions: { rememberDismissals: (_, { keys }) => storedBannerDismissals.set(keys) },
      }),
    },
  });
}

/** What the root actor starts with: the organization and the navigation's state remembered from the last visit. */
export const appRootInput = () => ({
  session: { storedParticipantId: storedParticipant.get() },
  navigation: { collapsed: storedNavigationCollapsed.get() },
  banners: { app: THIS_BANNER_APP, dismissed: storedBannerDismissals.get() },
});
