// A route that exists but whose screen arrives with a later feature: says so, shows no data.
import { TEXTS } from '../../../domain/texts';
import { PageHeading } from '../../ui/page-heading';

export function ScreenNotAvailable({ title, standalone = false }: { title: string; standalone?: boolean }) {
  const content = (
    <div className="flex flex-col gap-2">
      <PageHeading>{title}</PageHeading>
      <p className="text-slate-600">{TEXTS.screenNotAvailable}</p>
    </div>
  );
  return standalone ? (
    <main id="main" className="mx-auto max-w-3xl p-8">
      {content}
    </main>
  ) : (
    content
  );
}
