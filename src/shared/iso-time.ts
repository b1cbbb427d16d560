/**
 * Times as both API versions print them: ISO 8601 in UTC without milliseconds,
 * `2012-11-25T12:00:00Z`. Shared by the gateway (v1 action times) and the sandbox (v2 times).
 */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
