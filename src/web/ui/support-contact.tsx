import { SUPPORT_CONTACT } from '../../domain/texts';

export function SupportContact() {
  return (
    <p className="text-sm">
      Contact support at{' '}
      <a className="font-medium text-brand-700 underline" href={`mailto:${SUPPORT_CONTACT.email}`}>
        {SUPPORT_CONTACT.email}
      </a>{' '}
      or{' '}
      <a className="font-medium text-brand-700 underline" href={`tel:${SUPPORT_CONTACT.phone.replace(/\D/g, '')}`}>
        {SUPPORT_CONTACT.phone}
      </a>
      .
    </p>
  );
}
