import { describe, expect, it } from 'vitest';
import { analyticsEventName } from '../../contract/telemetry';
import {
  ChangesQuery,
  ErrorBody,
  NotificationsQuery,
  PreferencesPatch,
  SignUpBody,
  WorkerEvent,
  endpointPath,
  endpoints,
  isMutation,
  workspaceOps,
  type EndpointName,
} from '../../contract';

const firstIssue = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => r.error?.issues[0];

describe('contract schemas', () => {
  it('names the field at fault in a bad sign-up', () => {
    const r = SignUpBody.safeParse({ name: 'Ada', email: 'not-an-email', password: 'longenough' });
    expect(r.success).toBe(false);
    expect(firstIssue(r)).toMatchObject({
      path: ['email'],
      message: 'email must be a valid e-mail address',
    });
  });

  it('rejects short passwords and unknown keys', () => {
    const short = SignUpBody.safeParse({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'short',
    });
    expect(firstIssue(short)?.message).toBe('password must be at least 8 characters');
    const extra = SignUpBody.safeParse({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'longenough',
      admin: true,
    });
    expect(extra.success).toBe(false);
  });

  it('normalises e-mail to trimmed lower case', () => {
    const r = SignUpBody.parse({
      name: ' Ada ',
      email: '  Ada@Example.COM ',
      password: 'longenough',
    });
    expect(r).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
  });

  it('accepts only the spec nav states', () => {
    expect(PreferencesPatch.safeParse({ nav_state: 'peek' }).success).toBe(true);
    expect(PreferencesPatch.safeParse({ nav_state: 'half-open' }).success).toBe(false);
  });

  it('tags every worker event by type', () => {
    expect(
      WorkerEvent.parse({ type: 'logout', reason: 'session-lost', origin_tab: null }).type,
    ).toBe('logout');
    expect(WorkerEvent.safeParse({ type: 'nonsense' }).success).toBe(false);
  });

  it('error bodies carry a code and a message', () => {
    expect(ErrorBody.safeParse({ error: 'bad_request', message: 'email: required' }).success).toBe(
      true,
    );
    expect(ErrorBody.safeParse({ error: 'teapot', message: 'x' }).success).toBe(false);
  });
});

describe('endpoint catalogue', () => {
  const names = Object.keys(endpoints) as EndpointName[];

  it('has unique method and path pairs, all relative to /api', () => {
    const keys = names.map((n) => `${endpoints[n].method} ${endpoints[n].path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const n of names) expect(endpoints[n].path.startsWith('/')).toBe(true);
  });

  it('treats every non-GET as a mutation, with a body schema unless it deletes', () => {
    for (const n of names) {
      if (isMutation(n) && endpoints[n].method !== 'delete') {
        expect(endpoints[n]).toHaveProperty('body');
      }
    }
    expect(isMutation('askSessionDelete')).toBe(true);
    expect(isMutation('signIn')).toBe(true);
    expect(isMutation('featureConfig')).toBe(false);
  });

  it('fills the product into the analytics path', () => {
    expect(endpointPath('analyticsReport', 'acme')).toBe('/acme-analytics/report');
  });

  it('names the attach click event after the product (001 §9)', () => {
    expect(analyticsEventName('needl', 'upload_clicked')).toBe('askneedl_upload_clicked');
    expect(analyticsEventName('acme', 'upload_clicked')).toBe('askacme_upload_clicked');
  });

  it('declares input and output for every worker op', () => {
    for (const [name, op] of Object.entries(workspaceOps)) {
      expect(op.input, name).toBeDefined();
      expect(op.output, name).toBeDefined();
    }
  });
});

describe('query parameters', () => {
  it('explain bad paging values in words', () => {
    expect(NotificationsQuery.safeParse({ page: 'abc' }).error?.issues[0].message).toBe(
      'page must be a number',
    );
    expect(NotificationsQuery.safeParse({ page: '0' }).error?.issues[0].message).toBe(
      'page must be 1 or more',
    );
    expect(ChangesQuery.safeParse({ limit: '9999' }).error?.issues[0].message).toBe(
      'limit must be between 1 and 500',
    );
    expect(NotificationsQuery.parse({})).toEqual({ page: 1 });
  });
});
