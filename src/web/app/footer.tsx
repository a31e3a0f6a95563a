import { SUPPORT_CONTACT } from '../../domain/texts';

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white px-6 py-4 text-sm text-slate-600">
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
        <address className="not-italic">
          {SUPPORT_CONTACT.postalAddress.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
        <p className="flex flex-col gap-1 sm:items-end">
          <a className="inline-flex min-h-6 items-center text-brand-700 underline" href={`mailto:${SUPPORT_CONTACT.email}`}>
            {SUPPORT_CONTACT.email}
          </a>
          <a className="inline-flex min-h-6 items-center text-brand-700 underline" href={`tel:${SUPPORT_CONTACT.phone.replace(/\D/g, '')}`}>
            {SUPPORT_CONTACT.phone}
          </a>
        </p>
      </div>
    </footer>
  );
}
