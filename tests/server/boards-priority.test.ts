import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draft, followFixture } from './boards-fixture';
import { addDocs, feedTitles, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * The feed's priority view: documents naming the user's people, by the people's priority
 * (HIGH, MEDIUM, LOW, then the rest), newest first within each; only the user's own people.
 */
describe.each(STORAGES)('the priority view on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await addDocs(h, 'demo_markets_wire', [
      news('p1', 'Powell signals patience on rates', 'The Fed chair spoke.', 1),
      news('p2', 'Markets drift before data', 'Nothing new.', 2),
      news('p3', 'Governor das keeps repo at 6.5%', 'The RBI held.', 3),
      news('p4', 'Nadella outlines AI spending', 'Capex rises.', 4),
      news('p5', 'Shaktikanta Das on inflation', 'Inflation is easing.', 5),
      news('p6', 'Oil steadies', 'Brent flat.', 6, { company_name: 'Jerome Powell Holdings' }),
      news('p7', '100% of 50_50 votes', 'A wildcard title.', 7),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  const person = async (token: string, name: string, priority: string) => {
    const res = await h.call('POST', '/people', {
      token,
      body: { people_name: name, people_priority: priority },
    });
    expect(res.status).toBe(200);
    return res.body.people_id as string;
  };

  it('orders home and a custom feed by the priority of the people they name', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const powell = await person(token, 'Powell', 'LOW');
    await person(token, 'Das', 'HIGH');
    await person(token, 'Nadella', 'MEDIUM');
    // Names are text, not patterns: "%" and "_" match only themselves.
    await person(token, '0%5', 'HIGH');
    await person(token, '1_0', 'HIGH');
    expect(await feedTitles(h, token, 'home', '&sort=priority')).toEqual([
      'Governor das keeps repo at 6.5%',
      'Shaktikanta Das on inflation',
      'Nadella outlines AI spending',
      'Powell signals patience on rates',
      'Oil steadies',
      'Markets drift before data',
      '100% of 50_50 votes',
    ]);
    // A priority change reorders at once.
    await h.call('POST', `/people/edit/${powell}`, { token, body: { priority: 'HIGH' } });
    const made = await h.call('POST', '/boards/v2', {
      token,
      body: draft('Central banks', ['Das OR Powell']),
    });
    expect(made.status).toBe(201);
    expect(await feedTitles(h, token, made.body.board_id, '&sort=priority')).toEqual([
      'Powell signals patience on rates',
      'Governor das keeps repo at 6.5%',
      'Shaktikanta Das on inflation',
    ]);
  });

  it("ignores another user's people", async () => {
    const owner = await newUser(h);
    await person(owner.token, 'Nadella', 'HIGH');
    const other = await newUser(h, 'Bob Other');
    await followFixture(h, other.token);
    expect(await feedTitles(h, other.token, 'home', '&sort=priority')).toEqual(
      await feedTitles(h, other.token, 'home'),
    );
    expect((await feedTitles(h, other.token, 'home', '&sort=priority'))[0]).toBe(
      'Powell signals patience on rates',
    );
  });
});
