import './tables';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { defineServerDomain } from '../domain';
import { answererFor } from './answerers';
import { registerAskRoute } from './ask-route';
import { assistantMigrations } from './migrations';
import { seedAssistant } from './seed';
import { registerSessionRoutes } from './sessions-routes';

const register = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  registerAskRoute(app, deps, answererFor(deps));
  registerSessionRoutes(app, deps);
};

/**
 * The assistant (issue 8): questions answered as server-sent events from passages retrieved
 * within a scope (ask-route.ts, ask-run.ts, retrieve.ts), by an answerer (answerers.ts: the
 * extractive one, or a configured model); sessions, feedback and suggested questions
 * (sessions-routes.ts); a demo session (seed.ts).
 */
export const assistantDomain = defineServerDomain({
  name: 'assistant',
  register,
  migrations: assistantMigrations,
  seed: seedAssistant,
});

// What other folders may import (eslint.config.js: only through this file).
export { registerNotebookScope } from './notebook-scope';
