// One function per endpoint of SPEC section 7, parsed with src/contract.
import { figureInfoSchema, type FigureInfo } from '../contract/identity';
import { userParticipantsSchema, type UserParticipant } from '../contract/participants';
import { PATHS } from '../contract/paths';
import { usersMeSchema, type UsersMe } from '../contract/users';
import type { HttpClient } from './http';

export interface RegistryApi {
  figureInfo(signal?: AbortSignal): Promise<FigureInfo>;
  logout(signal?: AbortSignal): Promise<void>;
  usersMe(participantId: string | null, signal?: AbortSignal): Promise<UsersMe>;
  userParticipants(userId: string, signal?: AbortSignal): Promise<UserParticipant[]>;
}

export function createRegistryApi(http: HttpClient): RegistryApi {
  return {
    figureInfo: (signal) => http.request('GET', PATHS.figureInfo, figureInfoSchema, { signal }),
    logout: (signal) => http.send('POST', PATHS.logout, { signal }),
    // The session names the organization explicitly: it is choosing it.
    usersMe: (participantId, signal) => http.request('GET', PATHS.usersMe, usersMeSchema, { signal, participantId }),
    userParticipants: (userId, signal) => http.request('GET', PATHS.userParticipants(userId), userParticipantsSchema, { signal }),
  };
}
