// The banners (SPEC sections 3, 7 and 8): the banner file's items as the app reads them (each
// checked on its own, so one bad banner leaves the others shown), the staff's write body with
// the authoring screen's rules, and the staff's list.
import { z } from 'zod';
import { BANNER_APPS, BANNER_MESSAGE_MAX, BANNER_TEXTS as T, BANNER_VARIANTS } from '../domain/banners';
import { inputText } from './common';

const BANNER_APP_IDS = BANNER_APPS.map((app) => app.id) as [string, ...string[]];

/**
 * One banner of the file, as SPEC section 8 requires it: uuid, message, non-empty apps and
 * variant. A banner without `active` is not shown; without `dismissable` it cannot be dismissed.
 */
export const bannerFileItemSchema = z.object({
  uuid: z.uuid(),
  message: z.string().trim().min(1),
  apps: z.array(z.string().min(1)).min(1),
  variant: z.enum(BANNER_VARIANTS),
  active: z.boolean().default(false),
  dismissable: z.boolean().default(false),
  metadata: z.object({ createdAt: z.string().optional(), updatedAt: z.string().optional() }).optional().default({}),
});
export type BannerFileItem = z.infer<typeof bannerFileItemSchema>;

/** The file is a list; its items are checked one by one (bannerFileItemSchema). */
export const bannerFileSchema = z.array(z.unknown());

/** A banner as the server keeps it (the staff's list, the file it serves). */
export const bannerSchema = z.object({
  uuid: z.uuid(),
  message: z.string(),
  apps: z.array(z.string()).min(1),
  variant: z.enum(BANNER_VARIANTS),
  active: z.boolean(),
  dismissable: z.boolean(),
  metadata: z.object({ createdAt: z.iso.datetime({ offset: true }), updatedAt: z.iso.datetime({ offset: true }) }),
});
export type Banner = z.infer<typeof bannerSchema>;

/** The file the server serves: every banner it keeps, newest first. */
export const servedBannerFileSchema = z.array(bannerSchema);

export const bannerListSchema = z.object({ banners: z.array(bannerSchema) });
export type BannerList = z.infer<typeof bannerListSchema>;

/** What registry staff write; createdAt and updatedAt are the server's. */
export const bannerInputSchema = z
  .object({
    message: inputText({ error: T.required }).trim().min(1, T.required).max(BANNER_MESSAGE_MAX, T.messageTooLong),
    apps: z
      .array(z.enum(BANNER_APP_IDS))
      .min(1, T.appsRequired)
      .refine((apps) => new Set(apps).size === apps.length, 'Each application is named once.'),
    variant: z.enum(BANNER_VARIANTS),
    active: z.boolean(),
    dismissable: z.boolean(),
  })
  .strict();
export type BannerInput = z.infer<typeof bannerInputSchema>;

export const bannerParamsSchema = z.object({ bannerId: z.uuid() });
