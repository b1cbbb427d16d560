/**
 * A v1 call as a legacy client posts it, to any gateway URL: the params (credentials included) as
 * an urlencoded form. For tests whose gateway is not a TestGateway (one in front of a
 * fault-injecting upstream); a TestGateway has `v1` and `v1Raw` of its own.
 */
export function postV1(gatewayUrl: string, path: string, params: Record<string, string>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${gatewayUrl}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
    ...init,
  });
}
