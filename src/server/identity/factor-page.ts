// The hosted factor page: adding an email address or phone number (a 6-digit code), a security key
// or biometric (WebAuthn), or removing a factor, each after a recent proof of presence (the
// password, asked for here when the last one is older than 10 minutes). Server-rendered like the
// sign-in page, every value escaped; only the WebAuthn step loads a script (same origin).
import { PATHS } from '../../contract/paths';
import { FACTOR_TYPE_LABELS, type FactorType } from '../../domain/security-factors';
import { escapeHtml, hostedPage } from './sign-in-page';

export const PROFILE_URL = '/registry/profile';

export const EXTRA_STYLES = `
p.hint{margin:.375rem 0 0;color:#475569;font-size:.875rem}
p.back{margin:1.25rem 0 0;text-align:center}
a{color:#1d4ed8}
a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
button.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
button.secondary:hover{background:#eff6ff}
ol.codes{font-family:ui-monospace,monospace;font-size:1.05rem;columns:2;padding-left:1.5rem}
.notice{margin:0 0 1rem;padding:.75rem;border:1px solid #bfdbfe;border-radius:.5rem;background:#eff6ff;color:#1e3a8a}
`;

export type FactorPageStep =
  | { readonly kind: 'destination'; readonly type: 'Email' | 'Phone'; readonly value?: string }
  | { readonly kind: 'code'; readonly type: FactorType; readonly sentTo: string }
  | { readonly kind: 'webauthn'; readonly type: 'Biometric' | 'SecurityKey'; readonly optionsJson: string }
  | { readonly kind: 'remove'; readonly type: FactorType; readonly value: string }
  | { readonly kind: 'recovery-codes'; readonly codes: readonly string[]; readonly continueTo: string }
  | { readonly kind: 'gone' };

export interface FactorPageOptions {
  readonly flow?: string;
  readonly step: FactorPageStep;
  /** The password field is shown: the last proof of presence is too old. */
  readonly askPassword?: boolean;
  readonly error?: string;
  /** A line above the form (a code sent, say). */
  readonly notice?: string;
}

export function factorPageTitle(step: FactorPageStep): string {
  switch (step.kind) {
    case 'destination':
      return step.type === 'Email' ? 'Add an email address' : 'Add a phone number';
    case 'code':
      return 'Enter the code';
    case 'webauthn':
      return `Add a ${FACTOR_TYPE_LABELS[step.type].toLowerCase()}`;
    case 'remove':
      return `Remove a ${FACTOR_TYPE_LABELS[step.type].toLowerCase()} factor`;
    case 'recovery-codes':
      return 'Your recovery codes';
    case 'gone':
      return 'Security';
  }
}

function passwordField(options: FactorPageOptions): string {
  if (!options.askPassword) return '';
  return `<div class="field">
<label for="password">Current password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="password-hint" autofocus>
<p class="hint" id="password-hint">Confirm it is you: changes to your sign-in security need your password within the last 10 minutes.</p>
</div>`;
}

export function renderFactorPage(options: FactorPageOptions): string {
  const { step } = options;
  const error = options.error ? `<p class="alert" id="factor-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const notice = options.notice ? `<p class="notice" role="status">${escapeHtml(options.notice)}</p>` : '';
  const described = options.error ? ' aria-describedby="factor-error" aria-invalid="true"' : '';
  const flow = options.flow ? `<input type="hidden" name="flow" value="${escapeHtml(options.flow)}">` : '';
  const cancel = `<p class="back"><a href="${PROFILE_URL}">Cancel and go back to your profile</a></p>`;
  let body: string;
  switch (step.kind) {
    case 'destination': {
      const email = step.type === 'Email';
      body = `<form method="post" action="${PATHS.factorPage}">
${flow}<input type="hidden" name="action" value="send">
${passwordField(options)}
<div class="field">
<label for="destination">${email ? 'Email address' : 'Phone number'}</label>
<input id="destination" name="destination" type="${email ? 'email' : 'tel'}" autocomplete="${email ? 'email' : 'tel'}" required value="${escapeHtml(step.value ?? '')}"${described}${options.askPassword ? '' : ' autofocus'}>
<p class="hint">We send a 6-digit code there; it is valid for 10 minutes.</p>
</div>
<button type="submit">Send code</button>
</form>
${cancel}`;
      break;
    }
    case 'code':
      body = `<p class="lead">We sent a 6-digit code to ${escapeHtml(step.sentTo)}. It is valid for 10 minutes.</p>
<form method="post" action="${PATHS.factorPage}">
${flow}<input type="hidden" name="action" value="verify">
<div class="field">
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required autofocus${described}>
</div>
<button type="submit">Verify</button>
</form>
<form method="post" action="${PATHS.factorPage}">
${flow}<input type="hidden" name="action" value="resend">
<button type="submit" class="secondary">Send a new code</button>
</form>
${cancel}`;
      break;
    case 'webauthn':
      body = `<p class="lead">Use your ${FACTOR_TYPE_LABELS[step.type].toLowerCase()} when your browser asks.</p>
<form method="post" action="${PATHS.factorPage}" id="webauthn-form" data-mode="register">
${flow}<input type="hidden" name="action" value="webauthn">
<input type="hidden" name="credential" id="credential">
${passwordField(options)}
<script type="application/json" id="webauthn-options">${escapeJsonForHtml(step.optionsJson)}</script>
<button type="submit">Continue</button>
</form>
<script type="module" src="${PATHS.webauthnScript}"></script>
${cancel}`;
      break;
    case 'remove':
      body = `<p class="lead">${escapeHtml(FACTOR_TYPE_LABELS[step.type])}: ${escapeHtml(step.value)}. You will get a notice by email.</p>
<form method="post" action="${PATHS.factorPage}">
${flow}<input type="hidden" name="action" value="remove">
${passwordField(options)}
<button type="submit">Remove</button>
</form>
${cancel}`;
      break;
    case 'recovery-codes':
      body = `<p class="lead">Keep these ten codes somewhere safe. Each signs you in once if you lose your factors. They are shown only now.</p>
<ol class="codes" aria-label="Recovery codes">${step.codes.map((code) => `<li>${escapeHtml(code)}</li>`).join('')}</ol>
<p class="back"><a href="${escapeHtml(step.continueTo)}">I saved them: back to your profile</a></p>`;
      break;
    case 'gone':
      body = `<p class="back"><a href="${PROFILE_URL}">Back to your profile</a></p>`;
      break;
  }
  return hostedPage({ title: factorPageTitle(step), extraStyles: EXTRA_STYLES, body: `${error}${notice}${body}` });
}

/** JSON inside a <script type="application/json">: nothing in it may close the element. */
export function escapeJsonForHtml(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
