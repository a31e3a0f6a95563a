// Universal Loan Identifier check digits: ISO 7064 mod 97-10 over the alphanumeric string,
// letters mapped A=10 .. Z=35 in either case (as HMDA specifies: letters are not case-sensitive).
function toDigits(text: string): string {
  let digits = '';
  for (const char of normalizeUli(text)) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) digits += char;
    else if (code >= 65 && code <= 90) digits += String(code - 55);
    else throw new Error(`ULI may hold only letters and digits: ${char}`);
  }
  return digits;
}

function mod97(digits: string): number {
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

/** The two check digits to append to a ULI body (LEI + loan id). */
export function uliCheckDigits(body: string): string {
  const check = 98 - mod97(toDigits(body) + '00');
  return String(check).padStart(2, '0');
}

/**
 * A ULI in its stored form: letters uppercase. 12 CFR 1003 Appendix C makes letters not
 * case-sensitive, so a ULI given in any case is the same ULI; keep and compare it uppercased.
 * Only a-z change: String.toUpperCase would also turn 'ſ' into 'S' and 'ß' into 'SS'.
 */
export function normalizeUli(uli: string): string {
  return uli.replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** True when the ULI has 23 to 45 letters and digits (either case) and its check digits hold. */
export function isValidUli(uli: string): boolean {
  if (!/^[0-9A-Za-z]{23,45}$/.test(uli)) return false;
  return mod97(toDigits(uli)) === 1;
}
