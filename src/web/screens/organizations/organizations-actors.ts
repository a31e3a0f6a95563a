// The organization screens' actors over the app's services: the list, the add/edit form, the
// deactivation and the activity log through the API, the id made by the browser, the focus moves
// and the ways out. Their toasts are the machines' own (they run in the app's actor system).
import { fromPromise } from 'xstate';
import { organizationActivityMachine } from '../../../../machines/organization-activity';
import { organizationDeactivationMachine } from '../../../../machines/organization-deactivation';
import { organizationFormMachine } from '../../../../machines/organization-form';
import { organizationsListMachine, organizationsQueryOf, type OrganizationsView } from '../../../../machines/organizations-list';
import { pagedListOf } from '../../../../machines/paged-list';
import type { OrganizationField } from '../../../contract/organizations';
import { APP_PATHS } from '../../../domain/app-paths';
import { pageOffset } from '../../../domain/asset-table';
import type { AppServices } from '../../app/services';

/** The id of a field's control: `organization-address-zip`. */
export const organizationFieldId = (field: OrganizationField): string => `organization-${field.replaceAll('.', '-')}`;
export const REVIEW_HEADING_ID = 'organization-review-heading';

export const organizationsListLogic = ({ api }: Pick<AppServices, 'api'>) =>
  organizationsListMachine.provide({
    actors: {
      list: pagedListOf(async (view, signal) => {
        const page = await api.listOrganizations(organizationsQueryOf(view as OrganizationsView), signal);
        return { items: page.participants, totalCount: page.totalCount };
      }),
    },
  });

/** The id of an organization being added: made in the browser (SPEC section 7: the client gives it). */
export const newOrganizationId = (): string => crypto.randomUUID();

export function organizationFormLogic(services: Pick<AppServices, 'api' | 'navigate'>) {
  const { api } = services;
  return organizationFormMachine.provide({
    actors: {
      loadOrganization: fromPromise(({ input, signal }) => api.organization(input.id, signal)),
      saveOrganization: fromPromise(({ input, signal }) =>
        input.mode === 'add'
          ? api.createOrganization(input.id, input.draft, signal)
          : api.updateOrganization(input.id, input.draft, signal),
      ),
      reactivateOrganization: fromPromise(({ input, signal }) => api.setOrganizationActive(input.id, true, signal)),
    },
    actions: {
      // After React has shown the error the control is described by.
      focusField: (_, { field }) => {
        if (field) setTimeout(() => document.getElementById(organizationFieldId(field))?.focus(), 0);
      },
      focusStep: () => {
        setTimeout(() => (document.getElementById(REVIEW_HEADING_ID) ?? document.getElementById('page-heading'))?.focus(), 0);
      },
      goToList: () => services.navigate(APP_PATHS.organizations),
      goToAddUsers: (_, { id }) => services.navigate(APP_PATHS.newOrganizationUser(id)),
    },
  });
}

export const organizationDeactivationLogic = (services: Pick<AppServices, 'api' | 'navigate'>) =>
  organizationDeactivationMachine.provide({
    actors: {
      loadOrganization: fromPromise(({ input, signal }) => services.api.organization(input.id, signal)),
      deactivateOrganization: fromPromise(({ input, signal }) => services.api.setOrganizationActive(input.id, false, signal)),
    },
    actions: { goToList: () => services.navigate(APP_PATHS.organizations) },
  });

export const ACTIVITY_CSV_FILE = 'organization-activity.csv';

export const organizationActivityLogic = (services: Pick<AppServices, 'api' | 'download'>, organizationId: string) =>
  organizationActivityMachine.provide({
    actors: {
      list: pagedListOf(async (view, signal) => {
        const page = await services.api.organizationActivity(
          organizationId,
          { limit: view.limit, offset: pageOffset(view.page, view.limit) },
          signal,
        );
        return { items: page.entries, totalCount: page.totalCount };
      }),
      downloadCsv: fromPromise(async ({ input, signal }) => ({
        file: await services.api.organizationActivityCsv(input.organizationId, signal),
        fileName: ACTIVITY_CSV_FILE,
      })),
    },
    actions: { saveFile: (_, { file, fileName }) => services.download(file, fileName) },
  });
