// The identity broker's login is a POST that redirects to its hosted sign-in page: submit a
// real form so the browser follows the redirect as a top-level navigation.
import { PATHS } from '../../contract/paths';
import { APP_PATHS } from '../../domain/app-paths';
import { BASE_PATH } from '../../domain/constants';
import { IDENTITY_BASE_URL } from '../config';

/** `appPath`: where the sign-in returns to, relative to the app's base path. */
export function startHostedLogin(appPath: string = APP_PATHS.dashboard): void {
  const returnTo = `${BASE_PATH}${appPath}`;
  const form = document.createElement('form');
  form.method = 'post';
  form.action = `${IDENTITY_BASE_URL}${PATHS.login}?returnTo=${encodeURIComponent(returnTo)}`;
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
