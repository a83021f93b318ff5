import { describe, expect, it } from 'vitest';
import { ChatState, DEFAULT_CHAT_STATE, scopeType, sessionTitle } from '../../contract/assistant';

/**
 * The assistant's rules that server and worker both apply (contract/assistant*.ts), each
 * tested once here with literal cases.
 */

describe('a new session title', () => {
  it('is a short question as asked, whitespace collapsed, first letter capital', () => {
    expect(sessionTitle('  what did   nike say about tariffs? ')).toBe(
      'What did nike say about tariffs?',
    );
    expect(sessionTitle('net\n\tincome\r\n of  apple')).toBe('Net income of apple');
  });

  it('cuts a long question at a word near 60 characters, with an ellipsis', () => {
    expect(
      sessionTitle(
        'how do foreign currency exchange rates and inflation affect the margins of the footwear business in europe',
      ),
    ).toBe('How do foreign currency exchange rates and inflation affect…');
  });

  it('drops the punctuation left before the ellipsis', () => {
    expect(
      sessionTitle(
        'what were revenue, gross margin, operating income and cash, and the net income for fiscal 2024',
      ),
    ).toBe('What were revenue, gross margin, operating income and cash…');
  });

  it('cuts a question with no word break near 60 characters at 60', () => {
    expect(sessionTitle('x'.repeat(70))).toBe(`X${'x'.repeat(59)}…`);
  });
});

describe('which kind a scope is', () => {
  it('takes the most specific part it names', () => {
    const all = {
      document_id: ['d1'],
      source: 's1',
      channel_id: 'c1',
      board_id: 'b1',
    };
    expect(scopeType(all, 'needl')).toBe('document');
    expect(scopeType({ ...all, document_id: [] }, 'needl')).toBe('source');
    expect(scopeType({ ...all, document_id: null, source: null }, 'needl')).toBe('channel');
    expect(scopeType({ board_id: 'needl_universe', channel_id: null }, 'needl')).toBe('web');
    expect(scopeType({ board_id: 'b1' }, 'needl')).toBe('feed');
  });

  it('is all of the data for home or nothing', () => {
    expect(scopeType({ board_id: 'home' }, 'needl')).toBe('all');
    expect(scopeType({}, 'needl')).toBe('all');
    expect(
      scopeType({ document_id: [], source: null, channel_id: null, board_id: null }, 'needl'),
    ).toBe('all');
  });

  it("is the web only for this product's universe; another product's is a feed id", () => {
    expect(scopeType({ board_id: 'acme_universe' }, 'acme')).toBe('web');
    expect(scopeType({ board_id: 'acme_universe' }, 'needl')).toBe('feed');
  });
});

describe('the default chat state', () => {
  it('is all data (the home feed), no web, no session, no report', () => {
    expect(DEFAULT_CHAT_STATE).toEqual({
      searchWithin: 'all',
      currentFeedOrDocumentId: 'home',
      webSearch: false,
      lastActiveSessionId: null,
      report: { enabled: false, info: null, sources: [] },
    });
    expect(ChatState.parse(DEFAULT_CHAT_STATE)).toEqual(DEFAULT_CHAT_STATE);
  });
});
