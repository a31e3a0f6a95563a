import { z } from 'zod';
import { addressSchema } from './common';

export const contactSchema = z.object({
  type: z.enum(['PRIMARY', 'LEGAL', 'CUSTODIAN', 'CUSTOMER_SERVICE']),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
});

export const profileInfoSchema = z.object({
  name: z.string(),
  phoneNumber: z.string(),
  email: z.string(),
  address: addressSchema,
  url: z.string().nullable(),
  additionalContacts: z.array(contactSchema),
});
export type ProfileInfo = z.infer<typeof profileInfoSchema>;

export const participantSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  organizationName: z.string(),
  code: z.string().length(3),
  email: z.string(),
  phoneNumber: z.string(),
  address: addressSchema,
  grantedLimitedPowerOfAttorney: z.boolean(),
  isActive: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;

/** GET v1 /users/{userId}/participants: the caller's organizations. */
export const userParticipantSchema = z.object({
  participant: participantSchema,
  isDefault: z.boolean(),
});
export const userParticipantsSchema = z.array(userParticipantSchema);
export type UserParticipant = z.infer<typeof userParticipantSchema>;
