// The identity broker's hosted sign-in page: server-rendered, no script, every value escaped.
import { TEXTS } from '../../domain/texts';
import { PATHS } from '../../contract/paths';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface SignInPageOptions {
  readonly returnTo?: string;
  readonly email?: string;
  readonly error?: string;
}

/** The hosted pages' look (sign-in and password pages): inline style only, no script. */
const STYLES = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{width:100%;max-width:24rem;margin:1rem;padding:2rem;background:#fff;border-radius:.75rem;
  box-shadow:0 1px 3px rgba(15,23,42,.12),0 8px 24px rgba(15,23,42,.08)}
h1{margin:0 0 .25rem;font-size:1.5rem}
p.lead{margin:0 0 1.5rem;color:#475569}
.field{margin-bottom:1rem}
label{display:block;margin-bottom:.375rem;font-weight:600;font-size:.875rem}
input{width:100%;padding:.625rem .75rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem;color:inherit}
input:focus{outline:3px solid #93c5fd;outline-offset:1px;border-color:#1d4ed8}
button{width:100%;margin-top:.5rem;padding:.75rem;border:0;border-radius:.5rem;background:#1d4ed8;color:#fff;
  font-size:1rem;font-weight:600;cursor:pointer}
button:hover{background:#1e40af}
button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.alert{margin:0 0 1rem;padding:.75rem;border:1px solid #fecaca;border-radius:.5rem;background:#fef2f2;color:#991b1b}
`;

/** The document around a hosted identity page (sign-in, password): one shell, one stylesheet. */
export function hostedPage(page: { title: string; extraStyles?: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${page.title} | Loan Registry</title>
<style>${STYLES}${page.extraStyles ?? ''}</style>
</head>
<body>
<main>
<h1>${page.title}</h1>
${page.body}
</main>
</body>
</html>
`;
}

/** The focus starts where typing starts: the email, or the password once the email is known (after an error). */
export function renderSignInPage(options: SignInPageOptions = {}): string {
  const error = options.error ? `<p class="alert" id="sign-in-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const described = options.error ? ' aria-describedby="sign-in-error"' : '';
  const invalid = options.error ? ' aria-invalid="true"' : '';
  const returnTo = options.returnTo ? `<input type="hidden" name="returnTo" value="${escapeHtml(options.returnTo)}">` : '';
  return hostedPage({
    title: TEXTS.signIn,
    body: `<p class="lead">Loan Registry</p>
${error}
<form method="post" action="${PATHS.signIn}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}"${described}${invalid}${options.email ? '' : ' autofocus'}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}${invalid}${options.email ? ' autofocus' : ''}>
</div>
${returnTo}
<button type="submit">${TEXTS.signIn}</button>
</form>`,
  });
}
