// The page a browser gets for an address outside the app and the API (an Applications link to a
// product this server does not host, a mistyped URL): SPEC's 'Page Not Found' and the way back,
// in the hosted pages' look, instead of a JSON body meant for programs.
import { APP_PATHS } from '../domain/app-paths';
import { BASE_PATH } from '../domain/constants';
import { TEXTS } from '../domain/texts';
import { escapeHtml, hostedPage } from './identity/sign-in-page';

export function renderNotFoundPage(pathname: string): string {
  return hostedPage({
    title: TEXTS.pageNotFound,
    extraStyles: 'code{overflow-wrap:anywhere}a{color:#1d4ed8;font-weight:600}',
    body: `<p class="lead">There is no page at <code>${escapeHtml(pathname)}</code> on this server.</p>
<p>An application of the Applications menu that is not installed here ends on this page too.</p>
<p><a href="${BASE_PATH}${APP_PATHS.dashboard}">Go to the dashboard</a></p>`,
  });
}
