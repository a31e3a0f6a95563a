// The page while the session finds out who is signed in: one landmark, a heading for screen
// readers and the loading status. The shell and the catch-all route both show it.
import { TEXTS } from '../../domain/texts';
import { StatusMessage } from '../ui/status-message';

export const PRODUCT_NAME = 'Loan Registry';

export function LoadingPage() {
  return (
    <main id="main">
      <h1 className="sr-only">{PRODUCT_NAME}</h1>
      <StatusMessage>{TEXTS.loading}</StatusMessage>
    </main>
  );
}
