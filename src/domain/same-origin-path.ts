// The one rule for an address a sign-in may send the browser back to, shared by the login screen
// (appReturnTo) and the identity broker (safeReturnTo): a path on this site, nothing that could leave it.

/**
 * True for a non-empty path of at most maxLength characters that stays on this origin: it starts
 * with one '/', holds no '\' (browsers read it as '/', so '/\evil.test' would be protocol-relative)
 * and no control characters (they could split the Location header).
 */
export function isSameOriginPath(value: string, maxLength: number): boolean {
  if (value.length === 0 || value.length > maxLength) return false;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  return ![...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}
