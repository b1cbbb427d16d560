import { sandboxToken } from './sandbox-token.js';

/**
 * `npm run -s v2-token -- <api_key> <api_secret> [origin]`: print an OAuth access token of the
 * sandbox account whose pair this is (an hour's life), to call the sandbox's /v2 directly with curl
 * as `Authorization: Bearer`. `origin` defaults to the gateway's own on this machine: 127.0.0.1 at
 * PORT, the same setting npm start and npm run sandbox listen on (8080 when unset).
 */
const port = process.env.PORT?.trim() || '8080';
const [apiKey, apiSecret, origin = `http://127.0.0.1:${port}`] = process.argv.slice(2);
if (!apiKey || !apiSecret || !/^https?:\/\/[^/]+$/.test(origin)) {
  console.error('usage: npm run -s v2-token -- <api_key> <api_secret> [http://host:port]');
  process.exit(2);
}
try {
  console.log(await sandboxToken(origin, apiKey, apiSecret));
} catch (error) {
  console.error(`v2-token: ${(error as Error).message}`);
  process.exit(1);
}
