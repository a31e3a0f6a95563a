// /administration/organizations/:organizationUuid/users (SPEC section 2): the users of
// an organization (name, email, roles, last sign-in, a pending or expired invitation) a page at a
// time, sorted by name, email or last sign-in, all in the URL. A pending invitation can be sent
// again (its new link shown in the row with Copy link) or revoked; each member's roles can be
// edited and the member removed (the row's actions menu). The machine holds all of it; this
// screen renders it and sends the user's input.
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  parseOrganizationUsersView,
  selectBusyUserId,
  selectIsBusy,
  selectLinks,
  selectOrganizationName,
  selectUsersList,
  serializeOrganizationUsersView,
  type OrganizationUsersListSend,
  type OrganizationUsersView,
} from '../../../../machines/organization-users-list';
import { selectHasFailed, selectListView, type PagedListRef } from '../../../../machines/paged-list';
import type { OrganizationUser } from '../../../contract/organization-users';
import { APP_PATHS } from '../../../domain/app-paths';
import { formatDate, formatRelativeTime } from '../../../domain/format';
import { ORGANIZATION_USERS_TEXTS as T, userRoleLabel } from '../../../domain/organization-users';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { RowActionsMenu } from '../../ui/row-actions-menu';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { organizationUsersListActors, rowLinkId } from './organization-users-actors';

const USERS_URL = { parse: parseOrganizationUsersView, serialize: serializeOrganizationUsersView };
const DAY_MS = 24 * 60 * 60 * 1000;

/** What the rows of the list hand to the edit and remove screens (they read the member only when opened directly). */
export interface MemberState {
  readonly user: OrganizationUser;
}

export const memberOf = (state: unknown): OrganizationUser | null => {
  const user = (state as Partial<MemberState> | null)?.user;
  return user && typeof user === 'object' && typeof user.userId === 'string' ? user : null;
};

/** A sign-in in the last week reads relative ('3 days ago'); an older one is a date (MM-dd-yyyy). */
export function lastSignInText(lastSignInAt: string | null, now: Date): string {
  if (!lastSignInAt) return T.never;
  return now.getTime() - new Date(lastSignInAt).getTime() < 7 * DAY_MS ? formatRelativeTime(lastSignInAt, now) : formatDate(lastSignInAt);
}

export function OrganizationUsersScreen() {
  const { organizationUuid = '' } = useParams();
  return <OrganizationUsers key={organizationUuid} participantId={organizationUuid} />;
}

const buttonClass =
  'inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-800 hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

function OrganizationUsers({ participantId }: { participantId: string }) {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => organizationUsersListActors(services, participantId), [services, participantId]);
  const screen = useScreenActor(logic, { input: { participantId, view: parseOrganizationUsersView(location.search) } });
  const list = useSelector(screen, selectUsersList) as PagedListRef;
  useListUrl(list, USERS_URL);
  const name = useSelector(screen, selectOrganizationName);
  const links = useSelector(screen, selectLinks);
  const busy = useSelector(screen, selectIsBusy);
  const busyUserId = useSelector(screen, selectBusyUserId);
  const failed = useSelector(list, selectHasFailed);
  const view = useSelector(list, selectListView<OrganizationUsersView>);
  // The relative times are as of the screen's opening.
  const [now] = useState(() => new Date());
  const send: OrganizationUsersListSend = screen.send;

  const columns = useMemo(
    () => userColumns({ participantId, links, busy, busyUserId, now, send }),
    [participantId, links, busy, busyUserId, now, send],
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organizations}>
            {T.backToOrganizations}
          </Link>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <PageHeading>{name ? T.titleOf(name) : T.title}</PageHeading>
          <Link
            to={APP_PATHS.newOrganizationUser(participantId)}
            className="inline-flex h-10 items-center rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            {T.addUser}
          </Link>
        </div>
      </div>
      <UsersSearch list={list} />
      {failed ? (
        <LoadFailed message={T.failed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            sortable
            label={T.tableLabel}
            columns={columns}
            getRowId={(user) => user.userId}
            loadingMessage={T.loading}
            emptyMessage={view.query ? T.noMatch : T.empty}
          />
          <ListPagination list={list} idPrefix="users-pagination" />
        </div>
      )}
    </div>
  );
}

/** Search by name or email, sent on submit (each search is a history entry: Back returns to the one before). */
function UsersSearch({ list }: { list: PagedListRef }) {
  const view = useSelector(list, selectListView<OrganizationUsersView>);
  const input = useRef<HTMLInputElement>(null);
  // Back and a link change the view outside the box: it shows what the URL says (what is typed stays otherwise).
  useEffect(() => {
    if (input.current && input.current.value.trim() !== view.query) input.current.value = view.query;
  }, [view.query]);
  return (
    <form
      role="search"
      aria-label={T.searchLabel}
      className="flex max-w-md gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const query = String(new FormData(event.currentTarget).get('query') ?? '').trim();
        list.send({ type: 'list.filter', filters: { query } });
      }}
    >
      <input
        ref={input}
        type="search"
        name="query"
        aria-label={T.searchLabel}
        placeholder={T.searchLabel}
        defaultValue={view.query}
        maxLength={200}
        className="h-10 w-full rounded-md border border-slate-400 bg-white px-3 text-sm text-slate-900"
      />
      <button
        type="submit"
        className="h-10 rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50"
      >
        {T.search}
      </button>
    </form>
  );
}

const helper = createDataTableColumnHelper<OrganizationUser>();

interface ColumnOptions {
  readonly participantId: string;
  readonly links: Readonly<Record<string, string>>;
  readonly busy: boolean;
  readonly busyUserId: string | null;
  readonly now: Date;
  readonly send: OrganizationUsersListSend;
}

function userColumns({ participantId, links, busy, busyUserId, now, send }: ColumnOptions): readonly DataTableColumn<OrganizationUser>[] {
  return [
    helper.accessor('fullName', { id: 'name', header: T.name, size: 220, enableSorting: true }),
    helper.accessor('email', { id: 'email', header: T.email, size: 260, enableSorting: true }),
    helper.accessor('roles', {
      id: 'roles',
      header: T.roles,
      size: 220,
      cell: ({ getValue }) => getValue().map(userRoleLabel).join(', '),
    }),
    helper.accessor('lastSignInAt', {
      id: 'lastSignInAt',
      header: T.lastSignIn,
      size: 150,
      enableSorting: true,
      cell: ({ getValue }) => lastSignInText(getValue(), now),
    }),
    helper.display({
      id: 'invitation',
      header: 'Invitation',
      size: 300,
      cell: ({ row }) => (
        <InvitationCell
          user={row.original}
          link={links[row.original.userId] ?? null}
          busy={busy}
          working={busyUserId === row.original.userId}
          send={send}
        />
      ),
    }),
    helper.display({
      id: 'actions',
      header: () => <span className="sr-only">{T.actions}</span>,
      size: 64,
      meta: { label: T.actions, pinRight: true },
      cell: ({ row }) => (
        <RowActionsMenu
          label={T.actionsOf(row.original.fullName)}
          actions={[
            { label: T.editRoles, to: APP_PATHS.organizationUser(participantId, row.original.userId), state: { user: row.original } },
            { label: T.remove, to: APP_PATHS.deleteOrganizationUser(participantId, row.original.userId), state: { user: row.original } },
          ]}
        />
      ),
    }),
  ];
}

/** A pending (or expired) invitation with Resend and Revoke; the link a resend gave, with Copy link. */
function InvitationCell(props: {
  user: OrganizationUser;
  link: string | null;
  busy: boolean;
  working: boolean;
  send: OrganizationUsersListSend;
}) {
  const { user, link, busy, working, send } = props;
  const { invitation } = user;
  if (!invitation) return null;
  // Buttons stay focusable while another action runs (aria-disabled); the machine ignores them then.
  const act = (type: 'invitation.resend' | 'invitation.revoke' | 'link.copy') => () => {
    if (!busy) send({ type, user });
  };
  return (
    <div className="flex flex-col gap-1.5 py-1">
      <span className={invitation.expired ? 'text-sm font-medium text-red-800' : 'text-sm text-amber-900'}>
        {invitation.expired ? T.invitationExpired : T.invitationExpires(formatDate(invitation.expiresAt))}
      </span>
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          className={buttonClass}
          aria-disabled={busy}
          aria-busy={working}
          onClick={act('invitation.resend')}
          aria-label={`${T.resend}: ${user.fullName}`}
        >
          {T.resend}
        </button>
        <button
          type="button"
          className={buttonClass}
          aria-disabled={busy}
          onClick={act('invitation.revoke')}
          aria-label={`${T.revoke}: ${user.fullName}`}
        >
          {T.revoke}
        </button>
        {link && (
          <button
            type="button"
            className={buttonClass}
            aria-disabled={busy}
            onClick={act('link.copy')}
            aria-label={`${T.copyLink}: ${user.fullName}`}
          >
            {T.copyLink}
          </button>
        )}
      </div>
      {link && (
        <input
          id={rowLinkId(user.userId)}
          readOnly
          value={link}
          aria-label={T.newLinkOf(user.fullName)}
          onFocus={(event) => event.currentTarget.select()}
          className="h-8 w-full rounded border border-slate-300 bg-slate-50 px-2 text-xs text-slate-800"
        />
      )}
    </div>
  );
}
