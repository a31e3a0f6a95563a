// The banners registry staff write (schema.ts banners): data only, newest first.
import { desc, eq, sql } from 'drizzle-orm';
import type { BannerInput } from '../../contract/banners';
import type { Database, Transaction } from './database';
import { banners } from './schema';

export type BannerRow = typeof banners.$inferSelect;

/** Every banner, newest first (the index banners_created_idx); a few dozen at most in practice. */
export async function listBanners(db: Database | Transaction): Promise<BannerRow[]> {
  return db.select().from(banners).orderBy(desc(banners.createdAt), desc(banners.id));
}

/** The banner, locked until the transaction ends (an edit reads what it changes). */
export async function lockBanner(tx: Transaction, id: string): Promise<BannerRow | undefined> {
  const [row] = await tx.select().from(banners).where(eq(banners.id, id)).for('update');
  return row;
}

export async function insertBanner(tx: Database | Transaction, values: BannerInput): Promise<BannerRow> {
  const [row] = await tx.insert(banners).values(values).returning();
  if (!row) throw new Error('the banner insert returned no row');
  return row;
}

/** The server keeps updatedAt: later than the last one even if the clock stepped back, so a dismissal is forgotten. */
export async function updateBanner(tx: Database | Transaction, id: string, values: BannerInput): Promise<BannerRow> {
  const [row] = await tx
    .update(banners)
    .set({ ...values, updatedAt: sql`greatest(now(), ${banners.updatedAt} + interval '1 millisecond')` })
    .where(eq(banners.id, id))
    .returning();
  if (!row) throw new Error('the banner update found no row');
  return row;
}
