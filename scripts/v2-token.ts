import { signV2Token } from '../src/upstream/jwt.js';

/**
 * `npm run -s v2-token -- <api_key> <api_secret> [seconds]`: print a v2 JWT (HS256, iss = key,
 * exp = now + seconds, default 300), to call the sandbox's /v2 directly with curl.
 */
const [apiKey, apiSecret, seconds = '300'] = process.argv.slice(2);
if (!apiKey || !apiSecret || !/^\d+$/.test(seconds)) {
  console.error('usage: npm run -s v2-token -- <api_key> <api_secret> [seconds]');
  process.exit(2);
}
console.log(await signV2Token(apiKey, apiSecret, Math.floor(Date.now() / 1000) + Number(seconds)));
