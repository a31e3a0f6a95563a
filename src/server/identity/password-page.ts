// The identity broker's hosted password page (SPEC section 7's self/password-reset redirects
// here): server-rendered like the sign-in page, no script, every value escaped.
import { MIN_PASSWORD_LENGTH } from '../../contract/identity';
import { PATHS } from '../../contract/paths';
import { APP_PATHS } from '../../domain/app-paths';
import { escapeHtml, hostedPage } from './sign-in-page';

export const PASSWORD_PAGE_TITLE = 'Change password';

export interface PasswordPageOptions {
  readonly email: string;
  readonly error?: string;
  /** The field the error is about (it gets aria-invalid and aria-describedby). */
  readonly errorField?: 'currentPassword' | 'newPassword' | 'confirmPassword';
  /** The form is not shown (an account whose password is managed elsewhere). */
  readonly formless?: boolean;
}

const EXTRA_STYLES = `
p.hint{margin:.375rem 0 0;color:#475569;font-size:.875rem}
p.back{margin:1.25rem 0 0;text-align:center}
a{color:#1d4ed8}
a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
`;

function field(
  options: PasswordPageOptions,
  name: NonNullable<PasswordPageOptions['errorField']>,
  label: string,
  autocomplete: string,
  hint?: string,
): string {
  const describedBy = [hint ? `${name}-hint` : '', options.error && options.errorField === name ? 'password-error' : ''].filter(Boolean);
  const invalid = options.error && options.errorField === name ? ' aria-invalid="true"' : '';
  const minLength = name === 'currentPassword' ? '' : ` minlength="${MIN_PASSWORD_LENGTH}"`;
  return `<div class="field">
<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="password" autocomplete="${autocomplete}" required${minLength}${
    describedBy.length ? ` aria-describedby="${describedBy.join(' ')}"` : ''
  }${invalid}>
${hint ? `<p class="hint" id="${name}-hint">${hint}</p>` : ''}
</div>`;
}

export function renderPasswordPage(options: PasswordPageOptions): string {
  const error = options.error ? `<p class="alert" id="password-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const form = options.formless
    ? ''
    : `<form method="post" action="${PATHS.passwordPage}">
${field(options, 'currentPassword', 'Current password', 'current-password')}
${field(options, 'newPassword', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters, different from the current one.`)}
${field(options, 'confirmPassword', 'Confirm new password', 'new-password')}
<button type="submit">${PASSWORD_PAGE_TITLE}</button>
</form>`;
  return hostedPage({
    title: PASSWORD_PAGE_TITLE,
    extraStyles: EXTRA_STYLES,
    body: `<p class="lead">${escapeHtml(options.email)}. Every session of this account ends, and you sign in again with the new password.</p>
${error}
${form}
<p class="back"><a href="/registry${APP_PATHS.dashboard}">Back to the registry</a></p>`,
  });
}
