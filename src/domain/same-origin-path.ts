// The one rule for an address a sign-in may send the browser back to, shared by the login screen
// (appReturnTo) and the identity broker (safeReturnTo): a path on this site, nothing that could leave it.

/** A '.' or '..' segment, also percent-encoded ('%2e', '.%2E'): browsers resolve them before the request. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * True for a non-empty path of at most maxLength characters that stays on this origin and means
 * what it says: it starts with one '/', holds no '\' (browsers read it as '/', so '/\evil.test'
 * would be protocol-relative), no control characters (they could split the Location header) and
 * no dot segments ('/registry/../healthz' would leave the app for another page of the site).
 */
export function isSameOriginPath(value: string, maxLength: number): boolean {
  if (value.length === 0 || value.length > maxLength) return false;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return false;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  return !path.split('/').some((segment) => DOT_SEGMENT.test(segment));
}
