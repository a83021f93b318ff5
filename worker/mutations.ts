import { endpoints, type EndpointName } from '../contract/endpoints';
import type { Variant } from '../contract/tabs';
import { ApiError, type ApiClient } from './api-client';
import type { ResolvedEndpoint } from './registry';

export type MutationSend = {
  idempotencyKey: string;
  /** The path's `{name}` segments. */
  params?: Record<string, string>;
  variant: Variant;
  signal?: AbortSignal;
};

/**
 * Sends one outbox entry, `body` as its JSON body (the input, unless the mutation says). An endpoint of the contract's catalogue
 * goes through `call` by name; a domain's own endpoint (one the catalogue does not list yet,
 * or a test's) goes through `send` with its definition and is parsed with its response schema.
 * Either way it is background work (no logout broadcast when the token is gone).
 */
export async function sendMutation(
  client: ApiClient,
  endpoint: ResolvedEndpoint,
  body: unknown,
  options: MutationSend,
): Promise<unknown> {
  const { name, def } = endpoint;
  const common = { ...options, background: true };
  if (Object.hasOwn(endpoints, name) && endpoints[name as EndpointName] === def) {
    return client.call(name as EndpointName, { ...common, body: body as never });
  }
  const { signal, ...request } = common;
  const response = await client.send(
    { ...request, method: def.method, path: def.path, auth: def.auth, json: body },
    { signal },
  );
  const label = `${def.method.toUpperCase()} ${def.path}`;
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(response.status, 'bad_response', `${label} answered with no JSON`);
  }
  const parsed = def.response.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ApiError(
    response.status,
    'bad_response',
    `${label} answered with an unexpected shape: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
  );
}
