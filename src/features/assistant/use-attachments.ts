import { useCallback, useEffect, useMemo } from 'react';
import { toast } from 'react-hot-toast';
import { HOME_ID, type AskScope } from '../../../contract/assistant';
import {
  attachBlockedBy,
  dropDisabled,
  type ChatAttachment,
} from '../../../contract/assistant-attachments';
import type { AssistantState } from '../../state/assistant-state';
import type { AttachControl } from './attachments';

/** Validation toasts last 3 s (001 §8-9). */
const TOAST_MS = 3000;

/**
 * The chat's attachments for the composer (001 §2-5): the attach control (null without the
 * flag ask_{product}_upload), and the scope a question goes with: over the attachments feed
 * (the session's, or the one the composer's files went to) when there is one.
 */
export function useAttachments(props: {
  assistant: AssistantState;
  product: string;
  uploadOn: boolean;
  scope: AskScope;
  hasMessages: boolean;
  webSearch: boolean;
}) {
  const { assistant, product, uploadOn, scope, hasMessages, webSearch } = props;
  const state = assistant.attachments;
  const attachments = state.$attachments.value;
  const configsLoading = state.$configsLoading.value;
  // The session's feed once it has messages; before, the feed the composer's files went to.
  const feedId = scope.attachments_feed_id ?? (hasMessages ? null : state.$feedId.value);

  useEffect(() => {
    if (uploadOn) void state.loadConfig();
  }, [state, uploadOn]);

  const onFiles = useCallback(
    (files: File[]) => {
      void state.add(files, { product, feedId }).then(
        (errors) => {
          for (const message of errors) toast.error(message, { duration: TOAST_MS });
        },
        () => {},
      );
    },
    [state, product, feedId],
  );
  const onRemove = useCallback(
    (id: string) => {
      void state.remove(id).then((error) => {
        if (error) toast.error(error, { duration: TOAST_MS });
      });
    },
    [state],
  );

  const onHomeFeed =
    scope.currentFeedOrDocumentId === HOME_ID &&
    !scope.document_ids?.length &&
    !scope.attachments_feed_id &&
    !scope.source &&
    !scope.channel_id;
  const rules = {
    uploadOn,
    configsLoading,
    webSearch,
    onHomeFeed,
    hasMessages,
    attachmentsFeedId: feedId,
    attachments,
  };
  const buttonBlockedBy = attachBlockedBy(rules);
  const buttonDisabled = buttonBlockedBy !== null;
  const dropOff = dropDisabled(rules);
  const control = useMemo<AttachControl | null>(
    () =>
      uploadOn
        ? {
            attachments,
            buttonDisabled,
            buttonBlockedBy,
            dropDisabled: dropOff,
            onFiles,
            onRemove,
          }
        : null,
    [uploadOn, attachments, buttonDisabled, buttonBlockedBy, dropOff, onFiles, onRemove],
  );

  /** The scope and attachments a question is sent with; the composer's list is emptied. */
  const forQuestion = useCallback(
    (asked: AskScope): { scope: AskScope; attachments: ChatAttachment[] } => {
      const feed = asked.attachments_feed_id ?? feedId;
      return {
        scope: feed ? { ...asked, attachments_feed_id: feed } : asked,
        attachments: state.take(),
      };
    },
    [state, feedId],
  );

  return { control, attachments, forQuestion };
}
