import { v1Example } from './v1-answers.js';
import { listen, type Listening } from './listen.js';

/**
 * A stand-in for the real v1 service, built from the published v1 reference: every
 * `POST /v1/<path>` answers that path's real example answer (JSON, or v1's 404 envelope for a path
 * the reference does not have). It never changes state, so it shows how reports read on
 * real-looking differences without an account anywhere. `requests` lists what it was sent.
 */
export async function startFakeV1(): Promise<Listening & { requests: { path: string; body: string }[] }> {
  const requests: { path: string; body: string }[] = [];
  const server = await listen(async (request) => {
    const path = new URL(request.url).pathname;
    requests.push({ path, body: await request.text() });
    let example: unknown;
    try {
      example = v1Example(path.replace(/^\/v1/i, '').toLowerCase());
    } catch {
      example = undefined;
    }
    if (example === undefined) return Response.json({ error: { code: 300, message: `Unknown v1 endpoint: ${path}.` } });
    return new Response(JSON.stringify(example), { headers: { 'content-type': 'application/json; charset=UTF-8', 'x-fake-v1': '1' } });
  });
  return Object.assign(server, { requests });
}
