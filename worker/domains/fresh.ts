import type { PatchItem } from '../mirror';
import type { FetchOptions } from '../reads';
import type { DomainContext } from '../registry';

/**
 * A mirrored answer with the spec's freshness (002 §7: feeds and source lists fresh for 15 s,
 * RSS sources 60 s): within `freshMs` of its fetch it is answered as is; older, it is answered
 * and fetched again in the background (the tabs hear what changed); never fetched, it is
 * fetched and awaited. `fetchedAt` reads when the mirrored answer was fetched.
 */
export async function freshRead<T, S extends string>(
  ctx: DomainContext<S>,
  read: {
    key: string;
    read(): Promise<T | undefined>;
    fetch(options: FetchOptions): Promise<PatchItem<S>[]>;
    fetchedAt(): Promise<number | undefined>;
  },
  freshMs: number,
): Promise<T> {
  const at = await read.fetchedAt();
  if (at !== undefined && ctx.clock.now() - at < freshMs) {
    const value = await read.read();
    if (value !== undefined) return value;
  }
  return ctx.reads.swr(read);
}

/** Not an id: the key of a domain's own bookkeeping record beside its entities. */
export const ownKey = (name: string) => `\u0000${name}`;
