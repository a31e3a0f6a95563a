// Universal Loan Identifier check digits: ISO 7064 mod 97-10 over the alphanumeric string,
// letters mapped A=10 .. Z=35 (as HMDA specifies).
function toDigits(text: string): string {
  let digits = '';
  for (const char of text.toUpperCase()) {
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

export function isValidUli(uli: string): boolean {
  if (!/^[0-9A-Z]{23,45}$/.test(uli)) return false;
  return mod97(toDigits(uli)) === 1;
}
