// Service paths of SPEC section 7. Base URLs are configurable; paths are fixed.
export const IDENTITY_BASE = '/identity-broker/agent';
export const DART_BASE = '/service-dart/secure/api';

export const PATHS = {
  figureInfo: `${IDENTITY_BASE}/secure/api/v3/self/figureinfo`,
  login: `${IDENTITY_BASE}/api/v3/login`,
  signIn: `${IDENTITY_BASE}/sign-in`,
  logout: `${IDENTITY_BASE}/secure/api/v3/logout`,
  usersMe: `${DART_BASE}/v1/users/me`,
  userParticipants: (userId: string) => `${DART_BASE}/v1/users/${encodeURIComponent(userId)}/participants`,
  userParticipantsPattern: `${DART_BASE}/v1/users/:userId/participants`,
  health: '/healthz',
} as const;
