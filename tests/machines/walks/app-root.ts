// The walk of the app-root machine: what its model-based test
// (tests/web/app-root-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { appRootMachine } from '../../../machines/app-root';
import { deactivationMachine } from '../../../machines/deactivation';
import { sampleLoanId } from '../../support/loan-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof appRootMachine> = {
  input: { session: { storedParticipantId: null }, navigation: { collapsed: false } },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'screen.open': { id: 'screen.deactivation', logic: deactivationMachine, input: { loanId: sampleLoanId, participantId: '' } },
    'screen.close': { id: 'screen.deactivation' },
  },
};
