import { z } from 'zod';
import { defineDomain, endpoint } from './define';

export const Health = z.object({
  status: z.literal('ok'),
  product: z.string(),
  database: z.enum(['sqlite', 'postgres']),
});
export type Health = z.infer<typeof Health>;

/** The ready check. */
export const health = defineDomain({
  name: 'health',
  endpoints: {
    health: endpoint({
      method: 'get',
      path: '/health',
      auth: false,
      response: Health,
      status: 200,
      summary: 'Ready check',
    }),
  },
  ops: {},
  changes: {},
  stores: [],
});
