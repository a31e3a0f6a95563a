import { Link } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { TEXTS } from '../../../domain/texts';
import { PageHeading } from '../../ui/page-heading';

/** SPEC's 'Page Not Found': its heading, a line and the way back. */
export function NotFoundMessage() {
  return (
    <div className="flex flex-col items-center gap-4 py-8 text-center">
      <PageHeading>{TEXTS.pageNotFound}</PageHeading>
      <p className="text-slate-600">The page you asked for does not exist.</p>
      <Link className="font-medium text-brand-700 underline" to={APP_PATHS.dashboard}>
        Go to the dashboard
      </Link>
    </div>
  );
}

/** The public page (SPEC section 2: any other public path), for a visitor who is not signed in. */
export function NotFoundScreen() {
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center p-8">
      <NotFoundMessage />
    </main>
  );
}
