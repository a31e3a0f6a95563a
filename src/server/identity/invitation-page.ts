// The hosted invitation page (PATHS.invitationPage): an invited person sets a password, or, when an
// identity of that email exists already, confirms it with its own password. Server-rendered like
// the sign-in and password pages: no script, every value escaped, the same look.
import { MIN_PASSWORD_LENGTH } from '../../contract/identity';
import { PATHS } from '../../contract/paths';
import { APP_PATHS } from '../../domain/app-paths';
import { USER_TEXTS } from '../../domain/administration-texts';
import { escapeHtml, hostedPage } from './sign-in-page';

export type InvitationField = 'newPassword' | 'confirmPassword' | 'password';

export interface InvitationPageOptions {
  /** Set password (a new identity) or confirm the existing identity's password. */
  readonly mode: 'new' | 'existing';
  readonly token: string;
  readonly email: string;
  readonly organizationName: string;
  readonly error?: string;
  readonly errorField?: InvitationField;
}

const EXTRA_STYLES = `
p.hint{margin:.375rem 0 0;color:#475569;font-size:.875rem}
p.back{margin:1.25rem 0 0;text-align:center}
a{color:#1d4ed8}
a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
`;

function field(options: InvitationPageOptions, name: InvitationField, label: string, autocomplete: string, hint?: string): string {
  const errorHere = options.error !== undefined && options.errorField === name;
  const describedBy = [hint ? `${name}-hint` : '', errorHere ? 'invitation-error' : ''].filter(Boolean);
  const minLength = name === 'password' ? '' : ` minlength="${MIN_PASSWORD_LENGTH}"`;
  const autofocus = (options.errorField ?? (options.mode === 'new' ? 'newPassword' : 'password')) === name ? ' autofocus' : '';
  return `<div class="field">
<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="password" autocomplete="${autocomplete}" required${minLength}${
    describedBy.length ? ` aria-describedby="${describedBy.join(' ')}"` : ''
  }${errorHere ? ' aria-invalid="true"' : ''}${autofocus}>
${hint ? `<p class="hint" id="${name}-hint">${hint}</p>` : ''}
</div>`;
}

/** The form of a pending invitation. */
export function renderInvitationPage(options: InvitationPageOptions): string {
  const error = options.error ? `<p class="alert" id="invitation-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const fields =
    options.mode === 'new'
      ? `${field(options, 'newPassword', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters.`)}
${field(options, 'confirmPassword', 'Confirm new password', 'new-password')}`
      : field(options, 'password', 'Password', 'current-password', 'The password you already sign in with.');
  const title = options.mode === 'new' ? USER_TEXTS.invitationTitle : USER_TEXTS.invitationExistingTitle;
  return hostedPage({
    title,
    extraStyles: EXTRA_STYLES,
    body: `<p class="lead">You are invited to ${escapeHtml(options.organizationName)} on the Loan Registry as ${escapeHtml(options.email)}.</p>
${error}
<form method="post" action="${PATHS.invitationPage}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<input type="text" name="username" autocomplete="username" value="${escapeHtml(options.email)}" hidden>
${fields}
<button type="submit">${title}</button>
</form>`,
  });
}

/** An invitation that cannot be used (unknown, expired, used, revoked): its message and the way to sign in. */
export function renderInvitationProblemPage(message: string): string {
  return hostedPage({
    title: USER_TEXTS.invitationTitle,
    extraStyles: EXTRA_STYLES,
    body: `<p class="alert" role="alert">${escapeHtml(message)}</p>
<p class="back"><a href="/registry${APP_PATHS.login}">Go to the sign-in page</a></p>`,
  });
}
