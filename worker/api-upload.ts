/** How far an upload is: bytes handed to the connection so far, of `total`. */
export type UploadProgress = { sent: number; total: number };

/** 64 KiB: small enough for a smooth progress bar, large enough to cost nothing. */
export const UPLOAD_CHUNK_BYTES = 64 * 1024;

/**
 * An upload body that reports its progress, for `send({ ..., body })`: a factory of
 * ReadableStreams (one per attempt, so a retried upload starts again from 0) that hand the
 * bytes over chunk by chunk only as fetch asks for them, and report each chunk as it goes.
 * Progress is counted on the request stream, so it is what fetch has taken, not what the
 * server has acknowledged (the answer to the request says that).
 *
 * Browsers send a ReadableStream body only with `duplex: 'half'` (the client sets it) and, in
 * Chromium, only over HTTP/2 or HTTP/3: over HTTP/1.1 such a fetch fails at once.
 */
export function progressBody(
  source: Blob | ArrayBuffer | Uint8Array<ArrayBuffer>,
  onProgress: (progress: UploadProgress) => void,
  chunkBytes = UPLOAD_CHUNK_BYTES,
): () => ReadableStream<Uint8Array> {
  const bytes = source instanceof ArrayBuffer ? new Uint8Array(source) : source;
  const total = bytes instanceof Blob ? bytes.size : bytes.byteLength;
  const slice = async (from: number, to: number) =>
    bytes instanceof Blob
      ? new Uint8Array(await bytes.slice(from, to).arrayBuffer())
      : bytes.subarray(from, to);

  return () => {
    let sent = 0;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (sent >= total) {
            controller.close();
            return;
          }
          const chunk = await slice(sent, Math.min(total, sent + chunkBytes));
          controller.enqueue(chunk);
          sent += chunk.byteLength;
          onProgress({ sent, total });
        },
      },
      // Nothing read ahead: a chunk leaves the source only when fetch asks for it.
      { highWaterMark: 0 },
    );
  };
}
