// The texts of registry staff's banners screen (/administration/banners), apart from the banners'
// own (banners.ts), which every page loads.
import { BANNER_TEXTS } from './banners';

export const BANNER_SCREEN_TEXTS = {
  ...BANNER_TEXTS,
  screenTitle: 'Banners',
  menuDescription: 'Announcements shown at the top of the registry and the other applications.',
  newBanner: 'New banner',
  editBanner: 'Edit banner',
  reviewTitle: 'Review banner',
  none: 'No banners yet.',
  loadFailed: 'The banners could not be loaded.',
  saveFailed: 'Something went wrong',
  saved: 'Banner saved.',
  message: 'Message',
  apps: 'Applications',
  variant: 'Variant',
  active: 'Active',
  dismissable: 'Dismissable',
  yes: 'Yes',
  no: 'No',
  updated: 'Updated',
  edit: 'Edit',
  review: 'Review',
  back: 'Back',
  cancel: 'Cancel',
  confirm: 'Save banner',
  retry: 'Try again',
  invalidInFile: (count: number) => `${count} banner(s) in the banner file are left out.`,
} as const;
