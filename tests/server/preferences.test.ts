import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

const OVERLAY_TYPES =
  'overlay_widths keys must be overlay types: preview, ask-{product}, custom-feed, portfolio, report';

describe.each(STORAGE_INDEPENDENT)('preferences on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const put = (token: string, body: unknown) => h.call('PUT', '/user/preferences', { token, body });
  const rowOf = async (userId: string) =>
    (
      await h.db
        .selectFrom('preferences')
        .select('data')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).data;

  it('takes widths for the overlay types only, naming the key it refuses', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    const unknown = await put(token, { overlay_widths: { preview: 60, sidebar: 30 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(`overlay_widths.sidebar: ${OVERLAY_TYPES}`);

    const otherProduct = await put(token, { overlay_widths: { 'ask-acme': 55 } });
    expect(otherProduct.status).toBe(400);
    expect(otherProduct.body).toEqual({
      error: 'bad_request',
      message:
        'overlay_widths.ask-acme: ask-acme is not an overlay type: expected one of preview, ask-needl, custom-feed, portfolio, report',
      issues: [
        {
          path: 'overlay_widths.ask-acme',
          message:
            'ask-acme is not an overlay type: expected one of preview, ask-needl, custom-feed, portfolio, report',
        },
      ],
    });

    const tooWide = await put(token, { overlay_widths: { report: 140 } });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.message).toBe(
      'overlay_widths.report: overlay widths must be between 0 and 100',
    );

    const ok = await put(token, { overlay_widths: { 'ask-needl': 55, report: 62.5 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ nav_state: null, overlay_widths: { 'ask-needl': 55, report: 62.5 } });
  });

  it('keeps the row and the change log small however many keys are sent', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    for (let i = 0; i < 20; i++) {
      const many = Object.fromEntries(
        Array.from({ length: 1000 }, (_, k) => [`overlay-${i}-${k}`, 50]),
      );
      expect((await put(token, { overlay_widths: many })).status).toBe(400);
    }
    for (let i = 0; i < 20; i++) {
      const width = 20 + i + 1 / 3;
      const body = {
        nav_state: i % 2 ? 'open' : 'closed',
        overlay_widths: {
          preview: width,
          'ask-needl': width,
          'custom-feed': width,
          portfolio: width,
          report: width,
        },
      };
      expect((await put(token, body)).status).toBe(200);
    }
    expect((await rowOf(session.user.id)).length).toBeLessThanOrEqual(250);
    const feed = await h.call('GET', '/sync/changes?after=0&limit=500', { token });
    expect(feed.body.changes).toHaveLength(20);
    expect(JSON.stringify(feed.body).length).toBeLessThanOrEqual(20 * 400);
  });

  it('records what a change changed, and nothing for a change to the same values', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    await put(token, { overlay_widths: { preview: 70, report: 40 } });
    await put(token, { nav_state: 'peek' });
    await put(token, { overlay_widths: { preview: 70 } });
    const feed = await h.call('GET', '/sync/changes?after=0', { token });
    expect(feed.body.changes.map((c: { data: unknown }) => c.data)).toEqual([
      { overlay_widths: { preview: 70, report: 40 } },
      { nav_state: 'peek' },
    ]);
    expect((await h.call('GET', '/user/preferences', { token })).body).toEqual({
      nav_state: 'peek',
      overlay_widths: { preview: 70, report: 40 },
    });
  });

  it('reads a row written before the limits, keeping what still fits', async () => {
    const { session } = await h.signUp();
    await h.db
      .updateTable('preferences')
      .set({
        data: JSON.stringify({
          nav_state: 'opened',
          overlay_widths: { preview: 45, 'overlay-7': 30, 'ask-acme': 50, report: 400 },
        }),
      })
      .where('user_id', '=', session.user.id)
      .execute();
    const res = await h.call('GET', '/user/preferences', { token: session.id_token });
    expect(res.body).toEqual({ nav_state: 'opened', overlay_widths: { preview: 45 } });
  });
});
