import type { Hono } from 'hono';
import type { Account } from './model/account.js';
import type { SandboxState } from './state.js';
import type { SandboxRateLimiter } from './rate-limit.js';

/** Hono environment of the v2 routes: the authenticated account rides on the context. */
export interface SandboxEnv {
  Variables: { account: Account };
}

export type SandboxApp = Hono<SandboxEnv>;

/** What every area's routes are given. */
export interface SandboxContext {
  state: SandboxState;
  /** The master account the sandbox started with. */
  master: Account;
  /** Base of the urls the sandbox renders (join_url, start_url, pic_url, ...), e.g. `https://sandbox.v1gate.local`. */
  publicUrl: string;
  /** The service's limits, where the sandbox applies them (null: off): routes spend their resources' own daily counts here. */
  limiter: SandboxRateLimiter | null;
}
