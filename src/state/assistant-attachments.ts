import { batch, computed, signal } from '@preact/signals-react';
import { chatAttachmentOf, type ChatAttachment } from '../../contract/assistant-attachments';
import type { UploadRow } from '../../contract/upload-client';
import { removeFileErrorText } from '../../contract/uploads';
import { userMessage } from '../lib/user-message';
import type { WorkspaceClient } from '../workspace-client';

let nextId = 0;
const clientId = () => `a${Date.now().toString(36)}${(nextId++).toString(36)}`;

/**
 * The files attached in a tab's chat before its question is sent (001 §3-5; contract
 * assistant-attachments.ts). Each is an upload the worker runs (`uploads.start`, into the
 * chat's attachments feed); its status comes from the worker's `uploads` rows, re-read when
 * the worker says they changed (its one status poll drives them to COMPLETED or FAILED).
 * Sending takes them (`take`: "attachments are emptied from the state when a question is
 * sent"); clearing the chat forgets them.
 */
export function createAttachments(client: WorkspaceClient) {
  /** The composer's attachments, in the order attached. */
  const $ids = signal<readonly string[]>([]);
  const $rows = signal<ReadonlyMap<string, UploadRow>>(new Map());
  /** The upload configuration is being read (the attach button waits for it, 001 §5). */
  const $configsLoading = signal(false);
  let configRead: Promise<unknown> | null = null;

  const $attachments = computed<ChatAttachment[]>(() =>
    $ids.value.flatMap((id) => {
      const row = $rows.value.get(id);
      return row ? [chatAttachmentOf(row)] : [];
    }),
  );
  /** The uploads feed the composer's attachments went to (null until one is confirmed). */
  const $feedId = computed<string | null>(() => {
    for (const id of $ids.value) {
      const feed = $rows.value.get(id)?.feed_id;
      if (feed) return feed;
    }
    return null;
  });

  const refresh = async () => {
    if ($ids.peek().length === 0) return;
    const rows = await client.call('uploads.list', {}).catch(() => null);
    if (!rows) return;
    const wanted = new Set($ids.peek());
    $rows.value = new Map(rows.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
  };
  client.onEvent((event) => {
    if (event.type === 'changed' && event.store === 'uploads') void refresh();
  });

  /** Reads the upload configuration once (cached forever by the worker). */
  const loadConfig = () => {
    if (configRead) return configRead;
    $configsLoading.value = true;
    configRead = client.call('uploads.config', {}).then(
      () => {
        $configsLoading.value = false;
      },
      () => {
        // A failed read does not lock the button: attaching asks again and says why.
        $configsLoading.value = false;
        configRead = null;
      },
    );
    return configRead;
  };

  /**
   * Attaches files: checked and uploaded by the worker (into `feedId` when the chat has one);
   * answers the messages to toast (the spec's file checks, in their order).
   */
  const add = async (
    files: readonly File[],
    opts: { product: string; feedId: string | null },
  ): Promise<string[]> => {
    if (files.length === 0) return [];
    const result = await client.call('uploads.start', {
      files: files.map((f) => ({
        id: clientId(),
        name: f.name,
        size: f.size,
        type: f.type,
        data: f,
      })),
      source: `ask${opts.product}`,
      ...(opts.feedId ? { feed_id: opts.feedId } : {}),
      existing: $attachments.peek().map((a) => ({
        name: a.name,
        size: $rows.peek().get(a.id)?.size ?? 0,
      })),
    });
    if (result.accepted.length > 0) {
      $ids.value = [...$ids.peek(), ...result.accepted];
      await refresh();
    }
    return result.errors;
  };

  /**
   * Takes an attachment off before its question is sent: out of its uploads feed (so it is not
   * asked over) and out of the list. Answers the error to show when the feed refused.
   */
  const remove = async (id: string): Promise<string | null> => {
    const row = $rows.peek().get(id);
    if (row?.feed_id && row.key) {
      try {
        await client.call('ask.detach', {
          feed_id: row.feed_id,
          key: row.key,
          name: row.name,
          id: row.id,
        });
      } catch (failure) {
        return removeFileErrorText(row.name, userMessage(failure));
      }
    }
    batch(() => {
      $ids.value = $ids.peek().filter((x) => x !== id);
    });
    void client.call('uploads.dismiss', { ids: [id] }).catch(() => {});
    return null;
  };

  /** The attachments sent with a question; the composer's list is emptied (001 §4.1). */
  const take = (): ChatAttachment[] => {
    const sent = $attachments.peek();
    $ids.value = [];
    return sent;
  };

  /** Clearing or another chat: the composer holds no attachments (001 §4.6). */
  const clear = () => {
    if ($ids.peek().length > 0) $ids.value = [];
  };

  return { $attachments, $feedId, $configsLoading, loadConfig, add, remove, take, clear };
}

export type AttachmentsState = ReturnType<typeof createAttachments>;
