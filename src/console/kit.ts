import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { UiAssets } from '../ui/assets.js';
import type { ConsoleApi } from './api.js';
import type { ConsoleChrome } from './render.js';
import type { ConsoleSession } from './session.js';

/** The operator as `GET /operators/me` answers. */
export interface Operator {
  user_id: string;
  roles: Array<{ role: 'instance_admin' | 'project_admin'; project_id: string | null }>;
}

/** Whether the operator holds every project (instance admin), not only some (project admin). */
export const isInstanceAdmin = (operator: Operator) => operator.roles.some((role) => role.role === 'instance_admin');

export interface SignedIn {
  session: ConsoleSession;
  api: ConsoleApi;
  operator: Operator;
  chrome: ConsoleChrome;
}

/** What every group of console pages shares (built once in ./routes.ts). */
export interface ConsolePageKit {
  app: FastifyInstance;
  assets: UiAssets;
  publicUrl: string;
  clock: Clock;
  /** The operator behind the console cookie; throws ConsoleSignInNeeded (the error handler signs in). */
  operatorOf(request: FastifyRequest): Promise<SignedIn>;
  /** The API as the project: the operator's token (instance admin) or a minted project token (project admin). */
  apiForProject(request: FastifyRequest, api: ConsoleApi, operator: Operator, projectId: string): Promise<ConsoleApi>;
  /** The operator, and the API as the project of the path's `project_id` (404 for an id the API could not know). */
  asProject(request: FastifyRequest): Promise<SignedIn & { projectId: string; project: ConsoleApi }>;
  /** The CSRF check of every console write (same origin as the public URL). */
  writeGuard(request: FastifyRequest): void;
  signIn(request: FastifyRequest, reply: FastifyReply, options?: { next?: string; maxAge?: number }): Promise<FastifyReply>;
  /**
   * Destructive actions need a sign-in at most STEP_UP_SECONDS old: undefined when the session's
   * is, else the redirect that signs in again (`max_age`) and comes back to `next` to confirm.
   */
  stepUp(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession, next: string): Promise<FastifyReply> | undefined;
  formOf(body: unknown): URLSearchParams;
}

export function formOf(body: unknown): URLSearchParams {
  return new URLSearchParams(typeof body === 'string' ? body : '');
}

/** Ids in console paths: what the API's ids look like, so nothing else reaches an API path. */
export const ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;

/** Destructive actions need a sign-in at most this old (seconds), else the operator signs in again. */
export const STEP_UP_SECONDS = 300;
