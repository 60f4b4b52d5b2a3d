import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { Empty, Loading, ProblemNotice } from './ui';
import { type Then, useWrite, type Write } from './write';

export type Load<T> =
  | { state: 'loading'; data?: T }
  | { state: 'ok'; data: T }
  | { state: 'error'; error: unknown; data?: T };

export type Loaded<T> = Load<T> & {
  /** Reads again; what was read stays shown meanwhile. */
  reload: () => void;
  /** How many times it was read again: a key for what must be read again with it. */
  round: number;
};

/** Runs `load` when `deps` change; `reload` runs it again. A late answer to an old request is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ state: 'loading', data: previous.data }));
    load().then(
      (data) => current && setState({ state: 'ok', data }),
      (error) => current && setState({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload, round };
}

/** The items of a paged list (`client.paginate`), page after page: all of them, or the first `most`. */
export async function readAll<T>(items: AsyncIterable<T>, most = Number.POSITIVE_INFINITY): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) {
    all.push(item);
    if (all.length >= most) break;
  }
  return all;
}

export type Resource<T> = Load<T> &
  Omit<Write, 'run'> & {
    round: number;
    /** Reads it again as a person asks to (after a 412, say): the last write's outcome and `onReload` go. */
    reload: () => void;
    /** Reads it again, keeping the last write's outcome: a refresh the page does by itself. */
    refresh: () => void;
    /** A write to it (`submit`, its form's): it is read again after, unless `then.after` says otherwise. */
    write: Write['run'];
    /** After a write a form made itself (and shows the failures of): reads it again, and says `notice`. */
    saved: (notice?: string) => void;
  };

/**
 * A resource a screen shows and writes: it is loaded, written one write at a
 * time, and read again after each write; the write's failure is kept to show.
 * `onReload` resets what the screen holds beside it (an open form, a draft).
 */
export function useResource<T>(
  load: () => Promise<T>,
  deps: unknown[],
  options: { onReload?: () => void } = {},
): Resource<T> {
  const loaded = useLoad(load, deps);
  const { run, submit, ...write } = useWrite();
  const reload = () => {
    write.clear();
    options.onReload?.();
    loaded.reload();
  };
  const thenReload = (then: Then = {}): Then => ({ ...then, after: then.after ?? reload });
  return {
    ...loaded,
    ...write,
    reload,
    refresh: loaded.reload,
    write: (change, then) => run(change, thenReload(then)),
    submit: (change, { blocked, ...then } = {}) => submit(change, { blocked, ...thenReload(then) }),
    saved: (notice = '') => {
      reload();
      write.announce(notice);
    },
  };
}

/** Until the first answer: "Loading …", or the problem when that failed. */
export function NotLoaded({ load, what }: { load: Load<unknown>; what: string }) {
  return load.state === 'error' ? <ProblemNotice error={load.error} /> : <Loading what={what} />;
}

/**
 * A list's state beside it: the problem when the read failed, "Loading …"
 * until the first answer, and `empty` when the answer holds no item (`count`).
 */
export function ListState({
  load,
  what,
  count,
  empty,
}: {
  load: Load<unknown>;
  what: string;
  count: number | undefined;
  empty: ComponentChildren;
}) {
  if (load.state === 'error') return <ProblemNotice error={load.error} />;
  if (load.data === undefined) return <Loading what={what} />;
  return count === 0 ? <Empty>{empty}</Empty> : null;
}
