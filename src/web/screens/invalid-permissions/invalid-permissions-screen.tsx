// SPEC section 6's 'Invalid Permissions' page: the shell shows it in place of a screen whose call
// was refused for a role the user lacks (the session's signedIn.permissionRefused state). Leaving
// it is going to another screen: the links below, the navigation or the browser's back button.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { TEXTS } from '../../../domain/texts';
import { PageHeading } from '../../ui/page-heading';
import { SupportContact } from '../../ui/support-contact';

const linkClass = 'rounded-md px-4 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2';

export function InvalidPermissionsScreen() {
  // The page replaced the screen without a navigation: move focus to its heading, as a navigation does.
  useEffect(() => document.getElementById('page-heading')?.focus(), []);
  return (
    <section className="flex max-w-2xl flex-col gap-4" aria-labelledby="page-heading">
      <PageHeading>{TEXTS.invalidPermissions}</PageHeading>
      <p className="text-slate-700">{TEXTS.invalidPermissionsBody}</p>
      <SupportContact />
      <div className="flex flex-wrap gap-3">
        <Link to={APP_PATHS.dashboard} className={`${linkClass} bg-brand-700 text-white hover:bg-brand-600`}>
          {TEXTS.backToDashboard}
        </Link>
        <Link to={APP_PATHS.login} className={`${linkClass} border border-slate-300 text-brand-700 hover:bg-slate-50`}>
          {TEXTS.backToLogin}
        </Link>
      </div>
    </section>
  );
}
