// The sign-in's second step (hosted, after the password): an identity that enrolled a factor of its
// own proves it holds one: a code sent to an enrolled email address or phone, a security key or
// biometric (WebAuthn), or one of its recovery codes. No session exists before it is passed.
import { PATHS } from '../../contract/paths';
import { FACTOR_TYPE_LABELS, type FactorType } from '../../domain/security-factors';
import { escapeJsonForHtml, EXTRA_STYLES } from './factor-page';
import { escapeHtml, hostedPage } from './sign-in-page';

export const SECOND_STEP_TITLE = 'Confirm it is you';

export interface SecondStepOptions {
  readonly flow: string;
  /** The enrolled email and phone factors (masked) a code can go to. */
  readonly codeFactors: readonly { id: string; type: FactorType; value: string }[];
  /** A code was sent: its field is shown. */
  readonly codeSentTo?: string;
  /** WebAuthn authentication options (JSON) when a security key or biometric is enrolled. */
  readonly webauthnOptionsJson?: string;
  readonly error?: string;
  readonly notice?: string;
}

export function renderSecondStepPage(options: SecondStepOptions): string {
  const flow = `<input type="hidden" name="flow" value="${escapeHtml(options.flow)}">`;
  const error = options.error ? `<p class="alert" id="second-step-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const notice = options.notice ? `<p class="notice" role="status">${escapeHtml(options.notice)}</p>` : '';
  const webauthn = options.webauthnOptionsJson
    ? `<form method="post" action="${PATHS.signInVerify}" id="webauthn-form" data-mode="authenticate">
${flow}<input type="hidden" name="action" value="webauthn"><input type="hidden" name="credential" id="credential">
<script type="application/json" id="webauthn-options">${escapeJsonForHtml(options.webauthnOptionsJson)}</script>
<button type="submit">Use your security key or biometric</button>
</form>
<script type="module" src="${PATHS.webauthnScript}"></script>`
    : '';
  const code = options.codeSentTo
    ? `<form method="post" action="${PATHS.signInVerify}">
${flow}<input type="hidden" name="action" value="verify">
<div class="field">
<label for="code">Code sent to ${escapeHtml(options.codeSentTo)}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required autofocus${
        options.error ? ' aria-describedby="second-step-error" aria-invalid="true"' : ''
      }>
</div>
<button type="submit">Verify</button>
</form>`
    : '';
  const send = options.codeFactors
    .map(
      (factor) => `<form method="post" action="${PATHS.signInVerify}">
${flow}<input type="hidden" name="action" value="send"><input type="hidden" name="factorId" value="${escapeHtml(factor.id)}">
<button type="submit" class="secondary">Send a code to ${escapeHtml(FACTOR_TYPE_LABELS[factor.type].toLowerCase())} ${escapeHtml(factor.value)}</button>
</form>`,
    )
    .join('\n');
  const recovery = `<details>
<summary>Use a recovery code</summary>
<form method="post" action="${PATHS.signInVerify}">
${flow}<input type="hidden" name="action" value="recovery">
<div class="field">
<label for="recoveryCode">Recovery code</label>
<input id="recoveryCode" name="recoveryCode" type="text" autocomplete="off" maxlength="32" required>
</div>
<button type="submit" class="secondary">Use recovery code</button>
</form>
</details>`;
  return hostedPage({
    title: SECOND_STEP_TITLE,
    extraStyles: `${EXTRA_STYLES}details{margin-top:1.25rem}summary{cursor:pointer;color:#1d4ed8}`,
    body: `<p class="lead">Your account asks for a second factor.</p>
${error}${notice}${webauthn}
${code}
${send}
${recovery}
<p class="back"><a href="${PATHS.signIn}">Start again</a></p>`,
  });
}
