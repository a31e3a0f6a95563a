// Sign-in security factors (SPEC sections 3, 6 and 8): the types, the texts, and the one rule of
// removal that the profile screen shows and the server enforces.

export const FACTOR_TYPES = ['Email', 'Phone', 'Biometric', 'SecurityKey'] as const;
export type FactorType = (typeof FACTOR_TYPES)[number];

/** Every account keeps one of these: the channels a forgotten password or a lost key is recovered through. */
export const REQUIRE_AT_LEAST_ONE_OF: readonly FactorType[] = ['Email', 'Phone'];

export const FACTOR_TYPE_LABELS: Readonly<Record<FactorType, string>> = {
  Email: 'Email',
  Phone: 'Phone',
  Biometric: 'Biometric',
  SecurityKey: 'Security key',
};

/** A code sent by mail or SMS: its digits, lifetime and wrong tries. */
export const CODE_DIGITS = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** Adding or removing a factor, or changing the password, needs a proof of presence this recent. */
export const PRESENCE_WINDOW_MS = 10 * 60 * 1000;
/** A password recovery link works once, this long. */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;

export const FACTOR_TEXTS = {
  title: 'Security',
  factorNotFound: 'Factor not found.',
  notEditable: 'This factor is managed by your organization and cannot be removed.',
  required: 'This factor is required and cannot be removed.',
  lastOfRequired: (types: readonly FactorType[]) =>
    `Your account must keep at least one ${types.map((type) => FACTOR_TYPE_LABELS[type]).join(' or ')} factor.`,
  nonceUsed: 'This request was already used. Start again from your profile.',
  flowExpired: 'This request has expired or belongs to another session. Start again from your profile.',
  wrongCode: 'The code is not correct.',
  codeExpired: 'The code has expired. Send a new code.',
  tooManyCodeAttempts: 'Too many wrong codes. Send a new code.',
  wrongPassword: 'The password is not correct',
  alreadyEnrolled: 'This factor is already on your account.',
  invalidEmail: 'Please enter a valid email address.',
  invalidPhone: 'Please enter a valid phone number.',
  loadFailed: 'Unable to load your security factors',
  addFailed: 'Unable to add the factor',
  removeFailed: 'Unable to remove the factor',
  removed: 'Factor removed',
  added: 'Factor added',
} as const;

export interface FactorRuleView {
  readonly id: string;
  readonly type: FactorType;
  readonly editable: boolean;
  readonly required: boolean;
}

/**
 * Why a factor may not be removed (SPEC section 6: only an editable, not required, existing factor,
 * and the account stays secured by one of `requireAtLeastOneOf`), or null when it may.
 */
export function factorRemovalRefusal(
  factorId: string,
  factors: readonly FactorRuleView[],
  requireAtLeastOneOf: readonly FactorType[],
): string | null {
  const factor = factors.find((candidate) => candidate.id === factorId);
  if (!factor) return FACTOR_TEXTS.factorNotFound;
  if (!factor.editable) return FACTOR_TEXTS.notEditable;
  if (factor.required) return FACTOR_TEXTS.required;
  const remaining = factors.filter((candidate) => candidate.id !== factorId);
  if (requireAtLeastOneOf.length > 0 && !remaining.some((candidate) => requireAtLeastOneOf.includes(candidate.type))) {
    return FACTOR_TEXTS.lastOfRequired(requireAtLeastOneOf);
  }
  return null;
}

/** An address as the factor list shows it: the first character of the mailbox and the whole domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** A phone number as the factor list shows it: the last four digits only, in (###) ###-#### form. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `(***) ***-${digits.slice(-4).padStart(4, '*')}`;
}
