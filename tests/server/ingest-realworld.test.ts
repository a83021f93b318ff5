import { describe, expect, it } from 'vitest';
import { STORAGE_INDEPENDENT } from './harness';
import { fixture } from './ingest-fixture-server';
import { ingestSuite } from './ingest-suite';

/**
 * Real-world feed shapes that were refused or misread (issue 16), followed the way a user does:
 * POST /connect/rss with the address (the follow probes it), then the runner fetches it from
 * the local fixture server with the Content-Type such a publisher sends. What is stored is
 * checked exactly: how many documents, their titles (no U+FFFD), their dates and their text.
 */
// Storage-independent: how real feeds are parsed (bytes, charsets, dates); storing documents is
// tested on every back end in ingest-runner.test.ts and ingest-unstorable.test.ts.
describe.each(STORAGE_INDEPENDENT)('real-world feeds followed on %s', (storage) => {
  const s = ingestSuite(storage);
  const { path } = s;

  /** Serves a fixture with a Content-Type, follows it and runs the runner once. */
  const followFixture = async (name: string, contentType: string) => {
    s.server.set(path(name), {
      body: fixture(`feeds/${name}`),
      headers: { 'content-type': contentType },
    });
    const source = await s.follow(s.server.url(path(name)));
    expect(source.kind).toBe('rss');
    await s.runner.runDue();
    expect(await s.status(source.source_id)).toMatchObject({ state: 'ok', last_error: null });
    return source.source_id;
  };

  const stored = (sourceId: string) =>
    s.h.db
      .selectFrom('documents')
      .select(['title', 'unix', 'url', 'plain_text', 'html', 'thumbnail'])
      .where('source_id', '=', sourceId)
      .orderBy('unix', 'desc')
      .orderBy('title')
      .execute();

  it('follows a feed with blank lines before its XML declaration', async () => {
    const id = await followFixture('leading-whitespace.xml', 'application/rss+xml; charset=UTF-8');
    expect(await s.status(id)).toMatchObject({ items: 2, last_new: 2 });
    expect((await stored(id)).map((d) => [d.title, d.unix, d.url])).toEqual([
      [
        'Why duration is back',
        1700042400, // Wed, 15 Nov 2023 10:00:00 +0000
        'https://quayside.example.com/2023/11/why-duration-is-back/',
      ],
      [
        'Notes from the emerging markets desk',
        1699893900, // Mon, 13 Nov 2023 16:45:00 +0000
        'https://quayside.example.com/2023/11/em-desk-notes/',
      ],
    ]);
  });

  it('follows a feed with a byte-order mark and blank lines before its declaration', async () => {
    const id = await followFixture('bom-newlines.xml', 'text/xml');
    expect(await s.status(id)).toMatchObject({ items: 2, last_new: 2 });
    expect((await stored(id)).map((d) => [d.title, d.unix])).toEqual([
      ['Why duration is back', 1700042400],
      ['Notes from the emerging markets desk', 1699893900],
    ]);
  });

  it('follows a Latin-1 feed that declares no charset, its accents intact', async () => {
    const id = await followFixture('latin1-undeclared.xml', 'application/rss+xml');
    expect(await s.status(id)).toMatchObject({ items: 3, last_new: 3 });
    const docs = await stored(id);
    expect(docs.map((d) => [d.title, d.unix, d.plain_text])).toEqual([
      [
        "Zürich: l'indice SMI termine en hausse",
        1700066400, // Wed, 15 Nov 2023 17:40:00 +0100
        'Les valeurs défensives mènent la séance; Nestlé gagne 1,4 %.',
      ],
      [
        'La livre sterling à £0,87 pour un euro',
        1700042700, // Wed, 15 Nov 2023 11:05:00 +0100
        "Le change recule après les chiffres de l'inflation: 1 € = £0,87.",
      ],
      [
        "Café et cacao: les cours s'envolent",
        1699950600, // Tue, 14 Nov 2023 09:30:00 +0100
        'Les contrats à terme montent de 6 % à Londres.',
      ],
    ]);
    for (const d of docs) expect(`${d.title}${d.plain_text}${d.html}`).not.toContain('\uFFFD');
  });

  it('follows a German feed and dates its items by their localized dates', async () => {
    const id = await followFixture('german-rss.xml', 'application/rss+xml; charset=UTF-8');
    expect(await s.status(id)).toMatchObject({ items: 6, last_new: 6 });
    expect((await stored(id)).map((d) => [d.title, d.unix])).toEqual([
      ['Mai-Rallye: DAX startet mit Gewinnen', 1714626900], // 2024-05-02T05:15:00Z
      ['Jänner-Effekt: Wiener Börse im Plus', 1705478400], // 2024-01-17T08:00:00Z
      ['Märkte zum Jahresende: Anleger schließen Bücher', 1703242800], // 2023-12-22T11:00:00Z
      ['DAX schließt über 16.000 Punkten', 1700038800], // 2023-11-15T09:00:00Z
      ['Zinsentscheid: EZB lässt Leitzins unverändert', 1698322500], // 2023-10-26T12:15:00Z
      ['Ölpreis fällt nach OPEC-Treffen', 1678087800], // 2023-03-06T07:30:00Z
    ]);
  });

  it('follows an RSS 0.92 feed: item dates, else the channel date', async () => {
    const id = await followFixture('rss-092.xml', 'text/xml');
    expect(await s.status(id)).toMatchObject({ items: 3, last_new: 3 });
    expect((await stored(id)).map((d) => [d.title, d.unix, d.plain_text])).toEqual([
      [
        'Freight rates ease for a second week',
        1699997400, // the channel's lastBuildDate, Tue, 14 Nov 23 16:30 EST
        'Spot container rates from Shanghai fell 3% week on week.',
      ],
      [
        'Port of Rotterdam volumes held steady in October; transshipment rose.',
        1699997400,
        'Port of Rotterdam volumes held steady in October; transshipment rose.',
      ],
      [
        'Canal draft limits lifted',
        1699880700, // Mon, 13 Nov 23 08:05 EST
        'Ships may again load to full draft from Monday.',
      ],
    ]);
  });

  it("follows a YouTube channel's feed, each video told by its media description", async () => {
    const id = await followFixture('youtube-channel.xml', 'text/xml; charset=UTF-8');
    expect(await s.status(id)).toMatchObject({ items: 3, last_new: 3 });
    expect(
      (await stored(id)).map((d) => [d.title, d.unix, d.url, d.plain_text, d.html, d.thumbnail]),
    ).toEqual([
      [
        'Fed holds rates: what it means for bonds',
        1700042412, // 2023-11-15T10:00:12+00:00
        'https://www.youtube.com/watch?v=Qm8sRt2LpXw',
        'The Fed left rates at 5.25-5.50%.\nChapters:\n00:00 Intro\n02:15 Bonds & yields <2y vs 10y>\n\n' +
          'Subscribe for a market minute every morning.',
        '<p>The Fed left rates at 5.25-5.50%.<br />Chapters:<br />00:00 Intro<br />' +
          '02:15 Bonds &amp; yields &lt;2y vs 10y&gt;</p>' +
          '<p>Subscribe for a market minute every morning.</p>',
        'https://i2.ytimg.com/vi/Qm8sRt2LpXw/hqdefault.jpg',
      ],
      [
        'Oil slides after OPEC+ meeting',
        1699983000, // 2023-11-14T17:30:00+00:00
        'https://www.youtube.com/watch?v=Zk41bVv0aEo',
        'Brent fell 4% as OPEC+ delayed its meeting.',
        '<p>Brent fell 4% as OPEC+ delayed its meeting.</p>',
        'https://i3.ytimg.com/vi/Zk41bVv0aEo/hqdefault.jpg',
      ],
      [
        'Live: opening bell, 13 November',
        1699885503, // 2023-11-13T14:25:03+00:00
        'https://www.youtube.com/watch?v=Hn7cLq0Wd2s',
        '', // its media:description is empty
        '',
        'https://i1.ytimg.com/vi/Hn7cLq0Wd2s/hqdefault.jpg',
      ],
    ]);
  });
});
