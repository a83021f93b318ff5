/** Timestamps are stored and sent as ISO-8601 text: fixed width, so they sort as strings. */
export const iso = (ms: number): string => new Date(ms).toISOString();
