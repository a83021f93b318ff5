import { z } from 'zod';
import { SessionState } from './auth';
import { VARIANTS } from './constants';
import { defineDomain, Empty, id, LIMITS, op, text } from './define';

export const Variant = z.enum(VARIANTS);
export type Variant = z.infer<typeof Variant>;

/** The tabs a worker serves: each says hello, reports visibility, route and network, and bye. */
export const tabs = defineDomain({
  name: 'tabs',
  endpoints: {},
  ops: {
    /** A tab introduces itself; the answer is the session as the worker knows it. */
    'tab.hello': op(
      z.object({
        tab_id: id('tab_id'),
        variant: Variant,
        visible: z.boolean(),
        path: text('path', LIMITS.path),
      }),
      SessionState,
    ),
    'tab.visibility': op(z.object({ visible: z.boolean() }), z.void()),
    /** Every route change checks the session (000 §4). */
    'tab.route': op(z.object({ path: text('path', LIMITS.path) }), SessionState),
    /**
     * The tab's window went online or offline. Chromium fires no `online` event inside a
     * SharedWorker, so the tabs tell it: coming back online drains the outbox at once.
     */
    'tab.online': op(z.object({ online: z.boolean() }), z.void()),
    'tab.bye': op(Empty, z.void()),
  },
  changes: {},
  stores: [],
});
