import { useState } from 'react';
import type { Board } from '../../../contract/boards';
import { showToast } from '../../shell/toasts';
import { useShell } from '../../shell-context';
import { toBoardDraft, type FeedDraft } from './draft';
import { useFeedLoadingText } from './loading-text';
import type { BuilderNav } from './use-builder-nav';

/**
 * Saving a feed: 'boards.create' (or 'boards.update' for a saved one) while the loading text
 * cycles (002 §2), then the feed's page. A failure stays for the form to show.
 */
export function useSaveFeed(nav: BuilderNav) {
  const { client } = useShell();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const loadingText = useFeedLoadingText(saving);

  const save = async (draft: FeedDraft, boardId: string | null) => {
    setFailure(null);
    setSaving(true);
    try {
      const body = toBoardDraft(draft);
      const board: Board = boardId
        ? await client.call('boards.update', { id: boardId, draft: body })
        : await client.call('boards.create', body);
      showToast(
        'success',
        boardId ? `${board.board_name} is saved` : `${board.board_name} is ready`,
      );
      nav.openFeed(board.board_id);
    } catch (error) {
      setFailure(error);
      setSaving(false);
    }
  };

  return { save, saving, loadingText, failure };
}
