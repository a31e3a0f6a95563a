// /administration/banners (ours): registry staff write the banners of the banner file. The list,
// then a form, its review and the confirmation (machines/banner-authoring.ts). The file's banners
// that the app left out as malformed are said here too (SPEC section 8's message).
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import {
  selectBanners,
  selectDraft,
  selectVisibleErrors,
  type BannerAuthoringSnapshot,
  type BannerErrors,
} from '../../../../machines/banner-authoring';
import { selectInvalidCount } from '../../../../machines/banners';
import type { Banner, BannerInput } from '../../../contract/banners';
import { BANNER_SCREEN_TEXTS as T } from '../../../domain/banner-screen-texts';
import { BANNER_APPS, BANNER_DATA_INVALID, BANNER_VARIANTS } from '../../../domain/banners';
import { formatDate } from '../../../domain/format';
import { TEXTS } from '../../../domain/texts';
import { BannersActorContext } from '../../app/actor-contexts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { bannerAuthoringLogic } from './banners-actors';

const appLabel = (id: string) => BANNER_APPS.find((app) => app.id === id)?.label ?? id;
const variantLabel = (variant: BannerInput['variant']) => (variant === 'warn' ? T.warn : T.info);
const yesNo = (value: boolean) => (value ? T.yes : T.no);
const sameErrors = (a: BannerErrors, b: BannerErrors) => a.message === b.message && a.apps === b.apps;

const BUTTON = 'rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-700 text-white hover:bg-brand-800`;
const SECONDARY = `${BUTTON} border border-slate-400 bg-white text-slate-900 hover:bg-slate-50`;

type View = 'loading' | 'failed' | 'list' | 'editing' | 'reviewing' | 'saving';
const viewOf = (snapshot: BannerAuthoringSnapshot): View => snapshot.value as View;

export function BannersScreen() {
  const services = useAppServices();
  const logic = useMemo(() => bannerAuthoringLogic(services), [services]);
  const actor = useScreenActor(logic);
  const view = useSelector(actor, viewOf);
  const invalidInFile = BannersActorContext.useSelector(selectInvalidCount);
  const sectionHeading = useRef<HTMLHeadingElement | null>(null);
  const firstView = useRef(true);

  // Each step of the form moves focus to its heading, as a page change does.
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    (sectionHeading.current ?? document.getElementById('page-heading'))?.focus();
  }, [view]);

  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{T.screenTitle}</PageHeading>
      {invalidInFile > 0 && (
        <div role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-medium">{BANNER_DATA_INVALID}</p>
          <p>{T.invalidInFile(invalidInFile)}</p>
        </div>
      )}
      {(view === 'loading' || view === 'saving') && <StatusMessage>{TEXTS.loading}</StatusMessage>}
      {view === 'failed' && (
        <div className="flex flex-col items-start gap-3">
          <p role="alert">{T.loadFailed}</p>
          <button type="button" className={SECONDARY} onClick={() => actor.send({ type: 'list.retry' })}>
            {T.retry}
          </button>
        </div>
      )}
      {view === 'list' && <BannerList actor={actor} />}
      {view === 'editing' && <BannerForm actor={actor} headingRef={sectionHeading} />}
      {view === 'reviewing' && <BannerReview actor={actor} headingRef={sectionHeading} />}
    </div>
  );
}

type Actor = ReturnType<typeof useScreenActor<ReturnType<typeof bannerAuthoringLogic>>>;

function BannerList({ actor }: { readonly actor: Actor }) {
  const banners = useSelector(actor, selectBanners);
  return (
    <section aria-labelledby="banners-list-heading" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="banners-list-heading" className="text-lg font-semibold">
          {T.screenTitle}
        </h2>
        <button type="button" className={PRIMARY} onClick={() => actor.send({ type: 'banner.new' })}>
          {T.newBanner}
        </button>
      </div>
      {banners.length === 0 ? (
        <p>{T.none}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
          <table className="min-w-full text-left text-sm">
            <thead className="bg-slate-50">
              <tr>
                {[T.message, T.apps, T.variant, T.active, T.dismissable, T.updated].map((label) => (
                  <th key={label} scope="col" className="px-3 py-2 font-semibold">
                    {label}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{T.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {banners.map((banner) => (
                <BannerRow key={banner.uuid} banner={banner} onEdit={() => actor.send({ type: 'banner.edit', uuid: banner.uuid })} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function BannerRow({ banner, onEdit }: { readonly banner: Banner; readonly onEdit: () => void }) {
  return (
    <tr className="border-t border-slate-200 align-top">
      <td className="max-w-md px-3 py-2 break-words">{banner.message}</td>
      <td className="px-3 py-2">{banner.apps.map(appLabel).join(', ')}</td>
      <td className="px-3 py-2">{variantLabel(banner.variant)}</td>
      <td className="px-3 py-2">{yesNo(banner.active)}</td>
      <td className="px-3 py-2">{yesNo(banner.dismissable)}</td>
      <td className="px-3 py-2 whitespace-nowrap">{formatDate(banner.metadata.updatedAt)}</td>
      <td className="px-3 py-2">
        <button type="button" className="text-brand-700 underline" aria-label={`${T.edit}: ${banner.message}`} onClick={onEdit}>
          {T.edit}
        </button>
      </td>
    </tr>
  );
}

function BannerForm({ actor, headingRef }: { readonly actor: Actor; readonly headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const draft = useSelector(actor, selectDraft);
  const errors = useSelector(actor, selectVisibleErrors, sameErrors);
  const editing = useSelector(actor, (snapshot) => snapshot.context.editing !== null);
  const change = (values: Partial<BannerInput>) => actor.send({ type: 'form.change', values });
  const invalid = Boolean(errors.message || errors.apps);
  return (
    <form
      noValidate
      aria-labelledby="banner-form-heading"
      className="flex max-w-2xl flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'form.submit' });
      }}
    >
      <h2 id="banner-form-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {editing ? T.editBanner : T.newBanner}
      </h2>
      {invalid && (
        <p role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 p-3 text-sm font-medium text-red-900">
          {BANNER_DATA_INVALID}
        </p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor="banner-message" className="text-sm font-medium text-slate-800">
          {T.message}
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </label>
        <textarea
          id="banner-message"
          rows={3}
          aria-required
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'banner-message-error' : undefined}
          className="w-full rounded-md border border-slate-400 bg-white p-3 text-sm aria-[invalid=true]:border-red-700"
          value={draft.message}
          onChange={(event) => change({ message: event.target.value })}
        />
        {errors.message && (
          <p id="banner-message-error" className="text-sm text-red-700">
            {errors.message}
          </p>
        )}
      </div>
      <fieldset className="flex flex-col gap-2" aria-describedby={errors.apps ? 'banner-apps-error' : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          {T.apps}
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </legend>
        {BANNER_APPS.map((app) => (
          <label key={app.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft.apps.includes(app.id)}
              onChange={(event) =>
                change({ apps: event.target.checked ? [...draft.apps, app.id] : draft.apps.filter((id) => id !== app.id) })
              }
            />
            {app.label}
          </label>
        ))}
        {errors.apps && (
          <p id="banner-apps-error" className="text-sm text-red-700">
            {errors.apps}
          </p>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">{T.variant}</legend>
        {BANNER_VARIANTS.map((variant) => (
          <label key={variant} className="flex items-center gap-2 text-sm">
            <input type="radio" name="banner-variant" checked={draft.variant === variant} onChange={() => change({ variant })} />
            {variantLabel(variant)}
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.active} onChange={(event) => change({ active: event.target.checked })} />
        {T.active}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.dismissable} onChange={(event) => change({ dismissable: event.target.checked })} />
        {T.dismissable}
      </label>
      <div className="flex gap-3">
        <button type="submit" className={PRIMARY}>
          {T.review}
        </button>
        <button type="button" className={SECONDARY} onClick={() => actor.send({ type: 'form.cancel' })}>
          {T.cancel}
        </button>
      </div>
    </form>
  );
}

function BannerReview({ actor, headingRef }: { readonly actor: Actor; readonly headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const draft = useSelector(actor, selectDraft);
  const saveError = useSelector(actor, (snapshot) => snapshot.context.saveError);
  const rows: [string, string][] = [
    [T.message, draft.message.trim()],
    [T.apps, draft.apps.map(appLabel).join(', ')],
    [T.variant, variantLabel(draft.variant)],
    [T.active, yesNo(draft.active)],
    [T.dismissable, yesNo(draft.dismissable)],
  ];
  return (
    <section aria-labelledby="banner-review-heading" className="flex max-w-2xl flex-col gap-5">
      <h2 id="banner-review-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {T.reviewTitle}
      </h2>
      {saveError && (
        <p role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 p-3 text-sm font-medium text-red-900">
          {saveError}
        </p>
      )}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex gap-3">
        <button type="button" className={PRIMARY} onClick={() => actor.send({ type: 'review.confirm' })}>
          {T.confirm}
        </button>
        <button type="button" className={SECONDARY} onClick={() => actor.send({ type: 'review.back' })}>
          {T.back}
        </button>
      </div>
    </section>
  );
}
