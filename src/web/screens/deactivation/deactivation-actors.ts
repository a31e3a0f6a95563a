// The deactivation form's actors (machines/deactivation.ts) over the app's services: the loan and
// the request through the API, the focus moves and the way back to the list view the asset was
// opened from. Its toasts are the machine's own (it runs in the app's actor system).
import { fromPromise } from 'xstate';
import { deactivationMachine } from '../../../../machines/deactivation';
import type { DeactivationField } from '../../../contract/deactivation';
import type { AppServices } from '../../app/services';

/** The id of a field's control: `deactivation-address-zip`. */
export const fieldId = (field: DeactivationField): string => `deactivation-${field.replaceAll('.', '-')}`;

export const REFUSAL_ID = 'deactivation-refusal';
export const SUBMIT_ID = 'deactivation-submit';
/** The submit button keeps the focus while the fields are disabled (a disabled control would drop it to the page). */
const focusSubmitButton = () => document.getElementById(SUBMIT_ID)?.focus();

/** The machine over the services; `returnTo` is the list view the asset was opened from (an app path). */
export function deactivationActors(services: AppServices, returnTo: string) {
  const { api } = services;
  return deactivationMachine.provide({
    actors: {
      loadLoan: fromPromise(({ input, signal }) => api.loanDetails(input.loanId, signal)),
      submitDeactivation: fromPromise(({ input, signal }) => api.requestDeactivation(input.loanId, input.draft, input.file, signal)),
    },
    actions: {
      // After React has shown the error the control is described by.
      focusField: (_, { field }) => {
        if (field) setTimeout(() => document.getElementById(fieldId(field))?.focus(), 0);
      },
      focusFailure: (_, { field }) => {
        setTimeout(() => {
          const target = document.getElementById(field ? fieldId(field) : REFUSAL_ID);
          if (target) target.focus();
          else focusSubmitButton();
        }, 0);
      },
      focusSubmit: focusSubmitButton,
      goToAssets: () => services.navigate(returnTo),
    },
  });
}
