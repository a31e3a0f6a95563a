// /login: one button, 'Log in' or 'Log out' when signed in; the not-registered notice when the
// account is unregistered or the server answered 401 (?unauthorized=true), and a notice of its own
// when none of the account's organizations is active. After a 401 the
// screen that was interrupted comes as ?returnTo=, and signing in goes back to it.
import { useSearchParams } from 'react-router-dom';
import { appReturnTo } from '../../../domain/app-paths';
import { TEXTS } from '../../../domain/texts';
import { SessionActorContext } from '../../app/actor-contexts';
import { PageHeading } from '../../ui/page-heading';
import { SupportContact } from '../../ui/support-contact';

export function LoginScreen() {
  const session = SessionActorContext.useActorRef();
  const [searchParams] = useSearchParams();
  const identified = SessionActorContext.useSelector((snapshot) => snapshot.hasTag('identified'));
  const busy = SessionActorContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const unregistered = SessionActorContext.useSelector((snapshot) => snapshot.matches('unregistered'));
  const noOrganization = SessionActorContext.useSelector((snapshot) => snapshot.matches('noOrganization'));
  const failed = SessionActorContext.useSelector((snapshot) => snapshot.matches('failed'));
  const notice = noOrganization
    ? { title: TEXTS.noOrganizationTitle, body: TEXTS.noOrganizationBody }
    : unregistered || searchParams.get('unauthorized') === 'true'
      ? { title: TEXTS.notRegisteredTitle, body: TEXTS.notRegisteredBody }
      : null;
  // The screen a 401 interrupted (loginRedirectWithReturn): signing in comes back to it.
  const returnTo = appReturnTo(searchParams.get('returnTo')) ?? undefined;

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-gradient-to-b from-brand-900 to-brand-700 p-4">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-xl">
        <PageHeading>Loan Registry</PageHeading>
        <p className="mt-2 text-slate-600">Sign in to view and manage your organization’s loans.</p>
        {notice && (
          <section
            aria-labelledby="not-registered-title"
            className="mt-6 rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950"
          >
            <h2 id="not-registered-title" className="font-semibold">
              {notice.title}
            </h2>
            <p className="mt-1 text-sm">{notice.body}</p>
            <div className="mt-2">
              <SupportContact />
            </div>
          </section>
        )}
        {failed && (
          <div role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
            {TEXTS.registryUnreachable}
          </div>
        )}
        {failed ? (
          <button
            type="button"
            className="mt-6 w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-600"
            onClick={() => session.send({ type: 'session.retry' })}
          >
            {TEXTS.tryAgain}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            className="mt-6 w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
            onClick={() => session.send(identified ? { type: 'session.signOut' } : { type: 'session.logIn', returnTo })}
          >
            {identified ? TEXTS.logOut : TEXTS.logIn}
          </button>
        )}
      </div>
    </main>
  );
}
