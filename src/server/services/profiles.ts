// The contact profile's update (SPEC sections 5, 7 and 8): the organization's profile columns and
// its additional contacts replaced, with an audit row holding the values before and after, in one
// transaction. The caller cache learns of it from the participants and participant_contacts
// triggers (migrations 0005 and 0020).
import type { ProfileFields } from '../../contract/profile';
import type { ProfileInfo } from '../../contract/participants';
import { PROFILE_TEXTS } from '../../domain/administration-texts';
import { appendAudit, type AuditActor } from '../db/audit-repository';
import type { Database } from '../db/database';
import { findProfile, writeProfile, type ProfileWithContacts } from '../db/profile-repository';
import { writeTransaction } from '../db/write-transaction';
import { NotFoundError } from '../domain-errors';
import { toProfileInfo } from '../mappers';

export const PROFILE_UPDATED_ACTION = 'profile.updated';

const infoOf = ({ profile, contacts }: ProfileWithContacts): ProfileInfo => toProfileInfo(profile, contacts);

/** Replaces the organization's profile and contacts; answers the profile as stored. */
export async function updateProfile(db: Database, participantId: string, fields: ProfileFields, actor: AuditActor): Promise<ProfileInfo> {
  return writeTransaction(db, async (tx) => {
    const before = await findProfile(tx, participantId, { lock: true });
    if (!before) throw new NotFoundError(PROFILE_TEXTS.loadFailed);
    await writeProfile(tx, participantId, fields);
    const after = await findProfile(tx, participantId);
    if (!after) throw new NotFoundError(PROFILE_TEXTS.loadFailed);
    await appendAudit(tx, actor, {
      participantId,
      action: PROFILE_UPDATED_ACTION,
      targetType: 'PARTICIPANT_PROFILE',
      targetId: participantId,
      before: infoOf(before),
      after: infoOf(after),
    });
    return infoOf(after);
  });
}
