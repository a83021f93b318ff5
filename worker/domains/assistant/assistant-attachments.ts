import type { DetachInput } from '../../../contract/assistant-attachments';
import type { ChatsCtx } from './assistant-chats';

/**
 * A chat's attachments in the worker (contract/assistant-attachments.ts). Attaching is an
 * upload (`uploads.start` with the chat's attachments feed, worker/domains/uploads.ts, whose one
 * status poll moves every attachment to COMPLETED or FAILED); taking one off before its
 * question is sent is `ask.detach`: PUT /upload/complete with `action: remove`, so the file is
 * no longer in the feed the question is asked over (its document, passages and bytes go too).
 */
export async function askDetach(ctx: ChatsCtx, input: DetachInput) {
  await ctx.client.call('uploadCompleteUpdate', {
    body: {
      files: [
        {
          bucket: '',
          key: input.key,
          metadata: { name: input.name, mime_type: '', id: input.id },
        },
      ],
      action: 'remove',
      source: `ask${ctx.product}`,
      feed_id: input.feed_id,
    },
    signal: ctx.signal(),
  });
  return { ok: true as const };
}
