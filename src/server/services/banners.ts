// Registry staff's writes of a banner: each one transaction with its audit row (no organization:
// a banner concerns every user of the applications it names).
import type { Banner, BannerInput } from '../../contract/banners';
import { BANNER_TEXTS } from '../../domain/banners';
import { type AuditActor, appendAudit } from '../db/audit-repository';
import * as repository from '../db/banner-repository';
import type { BannerRow } from '../db/banner-repository';
import type { Database } from '../db/database';
import { writeTransaction } from '../db/write-transaction';
import { NotFoundError } from '../domain-errors';

/** A banner as the file and the staff's list give it. */
export const toBanner = (row: BannerRow): Banner => ({
  uuid: row.id,
  message: row.message,
  apps: row.apps,
  variant: row.variant,
  active: row.active,
  dismissable: row.dismissable,
  metadata: { createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
});

export async function createBanner(db: Database, actor: AuditActor, values: BannerInput): Promise<BannerRow> {
  return writeTransaction(db, async (tx) => {
    const row = await repository.insertBanner(tx, values);
    await appendAudit(tx, actor, {
      participantId: null,
      action: 'banner.created',
      targetType: 'banner',
      targetId: row.id,
      before: null,
      after: toBanner(row),
    });
    return row;
  });
}

export async function updateBanner(db: Database, actor: AuditActor, id: string, values: BannerInput): Promise<BannerRow> {
  return writeTransaction(db, async (tx) => {
    const before = await repository.lockBanner(tx, id);
    if (!before) throw new NotFoundError(BANNER_TEXTS.notFound);
    const row = await repository.updateBanner(tx, id, values);
    await appendAudit(tx, actor, {
      participantId: null,
      action: 'banner.updated',
      targetType: 'banner',
      targetId: id,
      before: toBanner(before),
      after: toBanner(row),
    });
    return row;
  });
}
