/**
 * The service's per-user daily cap: a user's 100 meeting creates and updates a UTC day
 * (docs/live-evidence.md, "Today's v2 rate limits"). Its 429 is about one user, not the account:
 * the account's budgets are untouched, so it must hold back nobody else's calls. Its
 * `X-RateLimit-Type: Daily-limit` is the same as the account's Heavy daily cap's; the service's
 * message is what names the user ("... permitted for this particular user ..."), so that is read.
 */
const USER_LEVEL = /permitted for this particular user/i;

export function isUserDailyLimit(error: { status: number; message: string }): boolean {
  return error.status === 429 && USER_LEVEL.test(error.message);
}
