import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { storableDocument, storableText } from '../../server/ingest/clean-text';
import { STORAGES } from './harness';
import { ingestSuite } from './ingest-suite';

/**
 * Text the databases refuse (issue 17): PostgreSQL refuses NUL in text, SQLite stores it, so a
 * feed item holding one failed its whole source on PostgreSQL only. Such characters are dropped
 * where fetched text enters, alike on every back end; and an item the database still refuses is
 * skipped and logged while the rest of its source is stored.
 */

const feed = (items: Array<{ guid: string; title: string; description: string }>) =>
  '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Wire</title>' +
  '<link>https://wire.example.com/</link>' +
  items
    .map(
      (it, i) =>
        `<item><title>${it.title}</title><guid>${it.guid}</guid>` +
        `<link>https://wire.example.com/${it.guid}</link>` +
        `<pubDate>Mon, 03 Mar 2025 0${i}:00:00 GMT</pubDate>` +
        `<description>${it.description}</description></item>`,
    )
    .join('') +
  '</channel></rss>';

describe('storable text', () => {
  it('drops NUL and replaces lone surrogates', () => {
    expect(storableText('rates\u0000 rise')).toBe('rates rise');
    expect(storableText('a\uD800b\uDC00c \uD83D\uDCC8')).toBe('a\uFFFDb\uFFFDc \uD83D\uDCC8');
    expect(
      storableDocument({
        dedupe_key: 'k\u0000',
        title: 'T\u0000',
        url: null,
        unix: null,
        html: '<p>\u0000x</p>',
        text: null,
        categories: ['a\u0000b'],
      }),
    ).toEqual({
      dedupe_key: 'k',
      title: 'T',
      url: null,
      unix: null,
      html: '<p>x</p>',
      text: null,
      categories: ['ab'],
    });
  });
});

describe.each(STORAGES)('text the database refuses, on %s', (storage) => {
  const s = ingestSuite(storage);
  const { path } = s;

  it('stores all 4 items of a feed when one holds a NUL, without the NUL', async () => {
    s.server.set(path('nul.xml'), {
      body: feed([
        { guid: 'n1', title: 'Rates hold', description: 'The bank held rates.' },
        {
          guid: 'n2',
          title: 'Copper\u0000 climbs',
          description: 'Copper rose\u0000 for a third day.',
        },
        // A character reference decodes to NUL only once parsed.
        { guid: 'n3', title: 'Yen &#0;slips', description: 'The yen slipped.' },
        { guid: 'n4', title: 'Oil steady', description: 'Oil was steady.' },
      ]),
    });
    const source = await s.follow(s.server.url(path('nul.xml')));
    await s.runner.runDue();
    expect(await s.status(source.source_id)).toMatchObject({
      state: 'ok',
      items: 4,
      last_new: 4,
      last_error: null,
    });
    const docs = await s.h.db
      .selectFrom('documents')
      .select(['title', 'plain_text'])
      .where('source_id', '=', source.source_id)
      .orderBy('unix')
      .execute();
    expect(docs).toEqual([
      { title: 'Rates hold', plain_text: 'The bank held rates.' },
      { title: 'Copper climbs', plain_text: 'Copper rose for a third day.' },
      { title: 'Yen slips', plain_text: 'The yen slipped.' },
      { title: 'Oil steady', plain_text: 'Oil was steady.' },
    ]);
  });

  it('skips and logs an item the database refuses, and stores the others', async () => {
    // A trigger stands for whatever a database may refuse in one item.
    const refuse =
      storage === 'sqlite'
        ? [
            sql`CREATE TRIGGER refuse_poisoned BEFORE INSERT ON documents
                WHEN NEW.title = 'Poisoned story'
                BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END`,
          ]
        : [
            sql`CREATE FUNCTION refuse_poisoned() RETURNS trigger AS $$
                BEGIN
                  IF NEW.title = 'Poisoned story' THEN
                    RAISE EXCEPTION 'refused by the test trigger';
                  END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql`,
            sql`CREATE TRIGGER refuse_poisoned BEFORE INSERT ON documents
                FOR EACH ROW EXECUTE FUNCTION refuse_poisoned()`,
          ];
    for (const statement of refuse) await statement.execute(s.h.db);
    try {
      s.server.set(path('poisoned.xml'), {
        body: feed([
          { guid: 'p1', title: 'Bonds rally', description: 'Bonds rallied.' },
          { guid: 'p2', title: 'Poisoned story', description: 'Refused.' },
          { guid: 'p3', title: 'Gold firm', description: 'Gold was firm.' },
          { guid: 'p4', title: 'Rand weak', description: 'The rand weakened.' },
        ]),
      });
      const source = await s.follow(s.server.url(path('poisoned.xml')));
      await s.runner.runDue();
      expect(await s.titles(source.source_id)).toEqual(['Bonds rally', 'Gold firm', 'Rand weak']);
      expect(await s.status(source.source_id)).toMatchObject({
        state: 'ok',
        items: 3,
        last_new: 3,
        last_error: null,
      });
      const skipped = s.logs.filter((line) => line.includes('skipped item'));
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toContain(`ingest ${source.source_id}: skipped item "p2": `);
      expect(skipped[0]).toContain('refused by the test trigger');
    } finally {
      await sql`DROP TRIGGER refuse_poisoned${sql.raw(storage === 'sqlite' ? '' : ' ON documents')}`.execute(
        s.h.db,
      );
      if (storage !== 'sqlite') await sql`DROP FUNCTION refuse_poisoned()`.execute(s.h.db);
    }
  });
});
