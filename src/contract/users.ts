import { z } from 'zod';
import { participantSchema, profileInfoSchema } from './participants';

export const userSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  roles: z.array(z.string()),
});
export type User = z.infer<typeof userSchema>;

/** GET v1 /users/me: the user and the current organization with its profile. */
export const usersMeSchema = z.object({
  user: userSchema,
  participant: participantSchema.extend({ profileInfo: profileInfoSchema }).nullable(),
});
export type UsersMe = z.infer<typeof usersMeSchema>;

export const userIdParamsSchema = z.object({ userId: z.uuid() });
