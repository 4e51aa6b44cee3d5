import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** A change of a page's URL state: the fields to set, or a function of the state the changes before it left. */
export type UrlStateChange<S> = Partial<S> | ((state: S) => Partial<S>);
export type SetUrlState<S> = (change: UrlStateChange<S>, opts?: { replace?: boolean }) => void;

/** How a page's state reads from and writes to its URL's search parameters. */
export interface UrlStateCodec<S> {
  parse(params: URLSearchParams): S;
  serialize(state: S): URLSearchParams;
}

/**
 * A page's state as its URL will show it once the router has rendered the changes asked for so far.
 *
 * The router renders a navigation later (a transition), and `setSearchParams(fn)` hands `fn` the parameters of the
 * last render. So a change made before the previous one's render started from the state before it: under load, the
 * session view's + + d ended with no zoom at all (a flaky e2e run), and a click on the search page's window then
 * its order could put the window back. Here each change applies to what the changes before it asked for, and a URL
 * that none of them asked for (Back, Forward, a link) replaces it.
 */
export class PendingUrlState<S> {
  private state: S;
  /** the searches asked for since the last one asked for was seen; the last of them */
  private asked = new Set<string>();
  private lastAsked = '';
  private shown: string;

  constructor(
    params: URLSearchParams,
    private readonly codec: UrlStateCodec<S>,
  ) {
    this.shown = params.toString();
    this.state = codec.parse(params);
  }

  /**
   * The router rendered `params`. The last change asked for: nothing is pending any more. An earlier one of ours
   * (the router may render it, or drop it for a later one), or the URL already shown: the state stays the latest
   * asked for. Anything else (a link) is the state now.
   */
  seen(params: URLSearchParams): void {
    const search = params.toString();
    if (this.asked.size > 0 && search === this.lastAsked) {
      this.asked.clear();
      this.shown = search;
      return;
    }
    if (search === this.shown || this.asked.has(search)) return;
    this.replaceWith(params);
  }

  /**
   * `params` are the state now, whatever was asked for: a link `seen`, or Back or Forward at popstate (before the
   * page renders it, and possibly to a URL one of our changes had shown, which `seen` could not tell from that
   * change still on its way).
   */
  replaceWith(params: URLSearchParams): void {
    this.asked.clear();
    this.shown = params.toString();
    this.state = this.codec.parse(params);
  }

  /** Applies `change` to the state the changes so far asked for; the search parameters to navigate to. */
  apply(change: UrlStateChange<S>): URLSearchParams {
    const next = { ...this.state, ...(typeof change === 'function' ? change(this.state) : change) };
    const params = this.codec.serialize(next);
    // the state as the URL will give it back (a zoom rounded, say), so that the next change starts from the same
    this.state = this.codec.parse(params);
    this.lastAsked = params.toString();
    this.asked.add(this.lastAsked);
    return params;
  }
}

/**
 * A page's state kept in its URL's search parameters (shareable, kept by a reload, stepped through by Back), with
 * changes that compose however fast they come (PendingUrlState). `replace` by default: `defaultReplace`.
 */
export function useUrlState<S>(codec: UrlStateCodec<S>, defaultReplace: boolean): [S, SetUrlState<S>] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => codec.parse(params), [codec, params]);
  const pending = useRef<PendingUrlState<S> | null>(null);
  pending.current ??= new PendingUrlState(params, codec);
  pending.current.seen(params);
  useEffect(() => {
    const onPop = () => pending.current?.replaceWith(new URLSearchParams(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const update = useCallback<SetUrlState<S>>(
    (change, opts) => setParams(pending.current!.apply(change), { replace: opts?.replace ?? defaultReplace }),
    [setParams, defaultReplace],
  );
  return [state, update];
}
