// Binds a list (machines/paged-list.ts) to the URL: the view (page, limit, sort, filters) is read
// from the search params and written to them, so a link, a reload and Back and Forward show
// what the URL says. The list emits each change of its view; the URL changing outside it comes
// back as `view.sync`. A view that the URL already names is never written again, and an empty
// URL is rewritten only where the screen asks for it: a navigation under way elsewhere (the
// session sending the browser to the dashboard as the screen mounts) is not cut short.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { sameListView, type ListView, type PagedListRef } from '../../../machines/paged-list';

export interface ListUrlCodec<View extends ListView> {
  /** The view a URL search names; anything malformed falls back to its default. */
  parse(search: string): View;
  /** The URL search of a view (`?page=1&limit=10...`). */
  serialize(view: View): string;
}

export interface ListUrlOptions {
  /** The screen writes its view into an empty URL on opening (the asset tables name page and limit). */
  readonly fillEmptyUrl?: boolean;
  /** Router state every entry the list writes keeps (where the page's back link leads). */
  readonly state?: unknown;
}

export function useListUrl<View extends ListView>(list: PagedListRef | undefined, codec: ListUrlCodec<View>, options: ListUrlOptions = {}) {
  const navigate = useNavigate();
  const location = useLocation();
  const { fillEmptyUrl = false, state } = options;
  const current = useRef(location.search);
  current.current = location.search;
  const written = useRef({ codec, navigate, fillEmptyUrl, state });
  written.current = { codec, navigate, fillEmptyUrl, state };

  useEffect(() => {
    if (!list) return undefined;
    const write = (view: View, replace: boolean) => {
      const { codec: urlCodec, navigate: go, fillEmptyUrl: fill, state: entryState } = written.current;
      const search = urlCodec.serialize(view);
      // The URL names this view already: as written, or (where the screen leaves it so) empty for the default view.
      const named = search === current.current || (!fill && current.current === '' && sameListView(urlCodec.parse(''), view));
      if (named) return;
      void go({ search }, { replace, state: entryState });
    };
    // The URL as the screen opens: a malformed (or, where asked, empty) one is corrected in place.
    write(written.current.codec.parse(current.current), true);
    const subscription = list.on('list.view', ({ view, replace }) => write(view as View, replace));
    return () => subscription.unsubscribe();
  }, [list]);

  useEffect(() => {
    list?.send({ type: 'view.sync', view: written.current.codec.parse(location.search) });
  }, [list, location.search]);
}
