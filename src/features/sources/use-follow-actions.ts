import { useState } from 'react';
import { FOLLOW_FAILURE_TEXT, type Source } from '../../../contract/sources';
import { serverMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';

/** A follow or unfollow failure: the server's words, or the spec's text (002 §8). */
export const followFailureText = (error: unknown) => serverMessage(error) ?? FOLLOW_FAILURE_TEXT;

/**
 * Follow and unfollow with the spec's toasts ("{name} is successfully followed", 000 §8); a
 * failure shows the server's text or "Something went wrong. Please try again". `busy` names the
 * source key being changed, so its button can say so.
 */
export function useFollowActions() {
  const { client } = useShell();
  const [busy, setBusy] = useState<string | null>(null);

  const run = async <T>(key: string, action: () => Promise<T>): Promise<T | null> => {
    setBusy(key);
    try {
      return await action();
    } catch (error) {
      showToast('error', followFailureText(error));
      return null;
    } finally {
      setBusy(null);
    }
  };

  const follow = async (source: Pick<Source, 'key'>) => {
    const answer = await run(source.key, () => client.call('sources.follow', { key: source.key }));
    if (answer) showToast('success', answer.message);
    return answer;
  };

  /** Answers the next followed source's key (where to go), or null; undefined on failure. */
  const unfollow = async (source: Pick<Source, 'key'>) => {
    const answer = await run(source.key, () =>
      client.call('sources.unfollow', { key: source.key }),
    );
    if (!answer) return undefined;
    showToast('success', answer.message);
    return answer.next;
  };

  return { busy, follow, unfollow };
}
