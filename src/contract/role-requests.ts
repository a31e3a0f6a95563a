// Role transfer requests and the organization directory (our additions to SPEC section 7).
import { z } from 'zod';
import { TRANSFERABLE_ROLES } from '../domain/role-transfer';

/** An active organization as the directory lists it: id and name only. */
export const directoryEntrySchema = z.object({ id: z.uuid(), name: z.string() });
export type DirectoryEntry = z.infer<typeof directoryEntrySchema>;
/** GET v1 /participants/directory: every active organization, by name. */
export const directorySchema = z.array(directoryEntrySchema);

export const roleRequestParamsSchema = z.object({ loanId: z.uuid() });

/** POST v1 /loans/{loanId}/role-requests: ask `participantId` to take over `role`. */
export const roleRequestBodySchema = z.object({
  role: z.enum(TRANSFERABLE_ROLES).describe(`The role to transfer: ${TRANSFERABLE_ROLES.join(', ')}`),
  participantId: z.uuid().describe('The receiving organization (an active organization of the directory)'),
});
export type RoleRequestBody = z.input<typeof roleRequestBodySchema>;

export const roleRequestSchema = z.object({
  id: z.uuid(),
  loanId: z.uuid(),
  role: z.enum(TRANSFERABLE_ROLES),
  state: z.enum(['PENDING', 'CONFIRMED', 'REJECTED', 'CANCELED']),
  receiver: directoryEntrySchema,
  created: z.iso.datetime({ offset: true }),
});
export type RoleRequest = z.infer<typeof roleRequestSchema>;
