import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import { registerAccountControlRoutes } from './account-routes.js';
import { registerDashboardControlRoutes } from './dashboard-routes.js';
import { registerMeetingControlRoutes } from './meeting-routes.js';
import { registerConnectorControlRoutes } from './connector-routes.js';
import { registerPhoneControlRoutes } from './phone-routes.js';
import { registerParticipantControlRoutes } from './participant-routes.js';
import { registerEventSubscriptionControlRoutes } from './event-subscription-routes.js';
import { registerPagingControlRoutes } from './paging-routes.js';

/**
 * The sandbox control API under /sandbox: a local test convenience, with no authentication, that
 * does what only people in a real meeting could do, so the post-meeting v2 endpoints have data.
 * JSON in and out; errors have the v2 shape (`{code, message[, errors]}`). Documented for users
 * in ./README.md.
 *
 * POST /sandbox/meetings/{id}/start         body {start_time?}  → 201 instance
 *      Start a live instance of meeting or webinar {id} (any account): a new instance uuid,
 *      start_time now (or the past time given); the host joins as the first participant.
 *      409 when it is already live.
 * POST /sandbox/meetings/{id}/participants  body {name, email?, join_time?} → 201 participant
 *      Someone joins the live instance (join_time between its start and now; now by default).
 *      An email of a sandbox user keeps that user's id; an approved registrant's email links
 *      `registrant_id`. 409 when nothing is live.
 * POST /sandbox/meetings/{id}/polls         body {name, email?, question_details:[{question, answer}]} → 201
 * POST /sandbox/meetings/{id}/questions     same body (webinars only: Q&A) → 201
 *      Record a poll answer or a Q&A entry on the live instance, else the latest one.
 *      409 when the meeting never started.
 * POST /sandbox/meetings/{id}/end           body {recording?: boolean | {files?: [{file_type, recording_type?, file_size?}]}} → 200 instance
 *      End the live instance: end_time now; everyone still in leaves then. recording true makes
 *      an MP4 and an M4A file; absent, a cloud recording is made when the meeting's
 *      auto_recording setting is `cloud`. 409 when nothing is live.
 * POST /sandbox/meetings/{id}/happen        body {start_time?, duration_minutes?, participants?: [{name, email?,
 *      joined_after_minutes?, left_after_minutes?}], recording?, polls?, questions?} → 201 instance
 *      Start, join, answer and end in one call, in the past: it ends by now (duration_minutes,
 *      by default the meeting's own duration or 30, before now unless start_time is given).
 * POST /sandbox/meetings/{id}/participants/{participantId}/client and .../qos
 *      What a participant's client reports: device and network, QoS samples (participant-routes.ts).
 * POST /sandbox/accounts/{id}/zoom-rooms, /sandbox/zoom-rooms/{roomId}/meetings, /sandbox/accounts/{id}/crc-usage,
 *      /sandbox/accounts/{id}/im-activity: Zoom Rooms, CRC port usage and chat counts (dashboard-routes.ts).
 * POST /sandbox/meetings/{id}/phone-legs: a telephone leg (call-in or call-out) of a session (phone-routes.ts).
 * POST /sandbox/meetings/{id}/meeting-connector-recording: a meeting connector made that session's recording (connector-routes.ts).
 * GET  /sandbox/accounts                    → 200 {total_records, accounts:[{id, account_name, account_type,
 *      owner_email, master_account_id, disassociated, api_key, api_secret}]}
 *      Every account with its API credentials, to call v2 as a sub account.
 * POST /sandbox/accounts/{id}/chat-sessions body {type?, name?, members?, messages:[{message, sender, date_time?}]} → 201 session
 *      Chat history of account {id}, for GET /im/chat/sessions[/{sessionId}] and, by member (the
 *      senders and `members`), GET /chat/users/{userId}/sessions and /messages.
 * PUT  /sandbox/accounts/{id|*}/event-subscription  body {url, secret_token, auth?} → 200 subscription
 *      Where the account's v2 events go, signed with the secret token; answers once the endpoint has
 *      answered the URL validation challenge (validated true) or failed it (false: it is sent nothing).
 * POST /sandbox/accounts/{id|*}/event-subscription/validate → 200 subscription: the challenge again.
 * GET  /sandbox/event-subscriptions → 200 {subscriptions} (event-subscription-routes.ts).
 * PUT  /sandbox/paging                    body {token_only?, max_page_size?} → 200 mode
 *      How every v2 list pages: by token only, pages of at most max_page_size (paging-routes.ts).
 * POST /sandbox/users/{id}/activate         → 200 {id, email, status}
 *      Confirm a pending user ({id} or email), as the link of the confirmation email would.
 *      409 when the user is not pending.
 *
 * An unknown meeting is 404 {code:3001}; an unknown user 404 {code:1001}; an invalid body
 * 400 {code:300, message:"Validation Failed.", errors:[{field, message}]}.
 */
export function registerControlRoutes(app: Hono, ctx: SandboxContext): void {
  registerMeetingControlRoutes(app, ctx);
  registerParticipantControlRoutes(app, ctx);
  registerPhoneControlRoutes(app, ctx);
  registerConnectorControlRoutes(app, ctx);
  registerAccountControlRoutes(app, ctx);
  registerDashboardControlRoutes(app, ctx);
  registerEventSubscriptionControlRoutes(app, ctx);
  registerPagingControlRoutes(app, ctx);
}
