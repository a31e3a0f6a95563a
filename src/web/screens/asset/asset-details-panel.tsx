// The Details tab: every field of SPEC section 3's loan details in SPEC section 9's formats,
// the status by the detail rule (SPEC section 4), and the parties per role with their state
// and the participant's profile.
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectDetailStatus, selectLoanDetails, type assetPageMachine } from '../../../../machines/asset-page';
import type { LoanParty, PartyValue } from '../../../contract/loans';
import type { ProfileInfo } from '../../../contract/participants';
import { formatCurrency, formatDate, formatPhone } from '../../../domain/format';
import { loanTypeLabel, partyRoleLabel, type DetailStatus } from '../../../domain/loan';
import { partyStateLabel } from '../../../domain/role-transfer';
import { ASSET_PAGE_TEXTS } from '../../../domain/asset-texts';
import { RoleTransfer } from './role-transfer-dialog';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const partyName = (value: PartyValue | null) => (value === null ? '—' : typeof value === 'string' ? value : value.participantName);

const STATUS_DOT: Record<string, string> = {
  'Pending Update': 'bg-amber-500',
  Deactivated: 'bg-slate-400',
  Active: 'bg-green-600',
  Inactive: 'bg-slate-400',
  Deleted: 'bg-red-600',
};

function StatusText({ status }: { status: DetailStatus }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${STATUS_DOT[status] ?? 'bg-slate-400'}`} />
      {status}
    </span>
  );
}

function Fields({ title, fields }: { title: string; fields: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5" aria-label={title}>
      <h3 className="mb-3 text-base font-semibold text-slate-900">{title}</h3>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
        {fields.map(([label, value]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
            <dd className="break-words text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Profile({ profile }: { profile: ProfileInfo | null }) {
  if (!profile) return <span className="text-slate-600">No profile</span>;
  const { address } = profile;
  return (
    <address className="flex flex-col not-italic">
      <span className="font-medium">{profile.name}</span>
      <span>{[address.street, address.street2].filter(Boolean).join(', ')}</span>
      <span>{`${address.city}, ${address.state} ${address.zip}`}</span>
      <span>{formatPhone(profile.phoneNumber)}</span>
      {profile.url && (
        <a className="text-brand-700 underline" href={profile.url} target="_blank" rel="noreferrer noopener">
          {profile.url}
        </a>
      )}
    </address>
  );
}

function PartiesTable({ parties }: { parties: readonly LoanParty[] }) {
  if (parties.length === 0) return <p className="text-slate-600">{ASSET_PAGE_TEXTS.noParties}</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{ASSET_PAGE_TEXTS.parties}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">
              Role
            </th>
            <th scope="col" className="px-4 py-2">
              Party
            </th>
            <th scope="col" className="px-4 py-2">
              State
            </th>
            <th scope="col" className="px-4 py-2">
              Profile
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {parties.map((party) => (
            <tr key={party.role} className="align-top">
              <th scope="row" className="px-4 py-3 font-medium">
                {partyRoleLabel(party.role)}
              </th>
              <td className="px-4 py-3">{partyName(party.currentValue)}</td>
              <td className="px-4 py-3">{partyStateLabel(party.state)}</td>
              <td className="px-4 py-3">
                <Profile profile={party.profileInfo} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AssetDetailsPanel({ asset }: { asset: ActorRefFrom<typeof assetPageMachine> }) {
  const details = useSelector(asset, selectLoanDetails);
  const status = useSelector(asset, selectDetailStatus);
  if (!details || !status) return null;
  const { loan, parties } = details;
  const { loanData, propertyAddress } = loan;
  const coBorrowers = loanData.additionalParties.filter((party) => party.partyType === 'COBORROWER');
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Fields
          title="Loan"
          fields={[
            ['ULI', <span className="font-mono break-all">{loanData.loan.uli}</span>],
            ['Loan number', loanData.loan.loanNumber],
            ['Loan type', loanTypeLabel(loanData.loan.loanType)],
            ['Status', <StatusText status={status} />],
            ['DART as original mortgagee', yesNo(loanData.dartAsOriginalMortgagee)],
            ['Deactivated', yesNo(loan.deactivated)],
          ]}
        />
        <Fields
          title="Note"
          fields={[
            ['Note amount', formatCurrency(loanData.note.amount)],
            ['Note date', formatDate(loanData.note.noteDate)],
            ['Note location', loanData.note.noteLocation ?? '—'],
            ['Modification', yesNo(loanData.note.modification)],
            ['Assumption', yesNo(loanData.note.assumption)],
          ]}
        />
        <Fields
          title="Borrowers"
          fields={[
            ['Primary party', `${loanData.primaryParty.firstName} ${loanData.primaryParty.lastName}`],
            [
              'Co-borrowers',
              coBorrowers.length === 0 ? (
                'None'
              ) : (
                <ul>
                  {coBorrowers.map((party, index) => (
                    <li key={index}>{`${party.firstName} ${party.lastName}`}</li>
                  ))}
                </ul>
              ),
            ],
          ]}
        />
        <Fields
          title="Property address"
          fields={[
            [
              'Address',
              <address className="not-italic">
                <span className="block">{[propertyAddress.street1, propertyAddress.street2].filter(Boolean).join(', ')}</span>
                <span className="block">{`${propertyAddress.city}, ${propertyAddress.state} ${propertyAddress.zip}`}</span>
              </address>,
            ],
          ]}
        />
      </div>
      <section aria-labelledby="asset-parties-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="asset-parties-heading" className="text-base font-semibold text-slate-900">
            {ASSET_PAGE_TEXTS.parties}
          </h3>
          {/* The transfer of a role this organization may hand over. */}
          <RoleTransfer asset={asset} />
        </div>
        <PartiesTable parties={parties} />
      </section>
    </div>
  );
}
