// A contact profile read only (SPEC section 3: name, phone, email, address, url, additional
// contacts), shown on the organization's profile page and in the partner view. Phones in SPEC
// section 9's (###) ###-####.
import type { ProfileInfo } from '../../../contract/participants';
import type { ReactNode } from 'react';
import { CONTACT_TYPE_LABELS, type ContactType } from '../../../contract/profile';
import { formatPhone } from '../../../domain/format';
import { PROFILE_TEXTS as T } from '../../../domain/administration-texts';

const typeLabel = (type: string) => CONTACT_TYPE_LABELS[type as ContactType] ?? type;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children || '—'}</dd>
    </div>
  );
}

export function ProfileDetails({ profile, headingLevel = 2 }: { profile: ProfileInfo; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { address } = profile;
  return (
    <div className="flex flex-col gap-6">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Detail label={T.organizationName}>{profile.name}</Detail>
        <Detail label={T.phone}>{formatPhone(profile.phoneNumber)}</Detail>
        <Detail label={T.email}>{profile.email}</Detail>
        <Detail label={T.url}>
          {profile.url && (
            <a className="text-brand-700 underline" href={profile.url} rel="noreferrer noopener" target="_blank">
              {profile.url}
            </a>
          )}
        </Detail>
        <Detail label="Address">
          <span className="block">{[address.street, address.street2].filter(Boolean).join(', ')}</span>
          <span className="block">{`${address.city}, ${address.state} ${address.zip}`}</span>
        </Detail>
      </dl>
      <section aria-labelledby="profile-contacts-heading" className="flex flex-col gap-3">
        <Heading id="profile-contacts-heading" className="text-lg font-semibold text-slate-900">
          {T.additionalContacts}
        </Heading>
        {profile.additionalContacts.length === 0 ? (
          <p className="text-slate-600">{T.noContacts}</p>
        ) : (
          <ContactsTable contacts={profile.additionalContacts} />
        )}
      </section>
    </div>
  );
}

export function ContactsTable({
  contacts,
  actions,
}: {
  contacts: readonly { type: string; name: string; phoneNumber: string; email: string }[];
  actions?: (index: number) => ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{T.additionalContacts}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {T.contactType}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {T.contactName}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {T.phone}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              {T.email}
            </th>
            {actions && (
              <th scope="col" className="px-3 py-2 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {contacts.map((contact, index) => (
            <tr key={`${contact.type}-${contact.name}-${index}`}>
              <td className="px-3 py-2">{typeLabel(contact.type)}</td>
              <td className="px-3 py-2">{contact.name}</td>
              <td className="px-3 py-2">{formatPhone(contact.phoneNumber)}</td>
              <td className="px-3 py-2">{contact.email}</td>
              {actions && <td className="px-3 py-2">{actions(index)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
