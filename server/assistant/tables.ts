/**
 * The assistant's tables (migration 0012, assistant/migrations.ts), merged into db/schema.ts's
 * Database interface. JSON columns are text, as everywhere.
 */
declare module '../db/schema' {
  interface Database {
    assistant_sessions: {
      /** The client may choose it (a new chat's id); unique across users. */
      id: string;
      user_id: string;
      title: string;
      /** contract SessionType. */
      type: string;
      /** JSON of contract SessionMetadata. */
      metadata: string;
      /** JSON object: the client's settings for the session (PUT state.settings). */
      settings: string;
      created_at: string;
      updated_at: string;
    };
    assistant_messages: {
      /** The answer's message_id. */
      id: string;
      session_id: string;
      user_id: string;
      /** Order within the session, from 1. */
      seq: number;
      prompt: string;
      /** contract AskMode. */
      mode: string;
      /** The markdown as streamed (all of it, or what came before a stop or failure). */
      answer: string;
      /** JSON of contract AskAnswer (DONE's data); null when the answer did not finish. */
      data: string | null;
      /**
       * contract BotMessageStatus (done, stopped or error), or 'answering' while its answer
       * streams (sessions.ts: read as stopped once `alive_at` is older than the lease).
       */
      status: string;
      /** While answering: when its stream last said it was alive (ISO); null otherwise. */
      alive_at: string | null;
      error: string | null;
      feedback: string | null;
      feedback_message: string | null;
      created_at: string;
    };
  }
}

export {};
