import { SignJWT } from 'jose';

/**
 * `npm run -s v2-token -- <api_key> <api_secret> [seconds]`: print a v2 JWT (HS256, iss = key,
 * exp = now + seconds, default 300), to call the sandbox's /v2 directly with curl.
 */
const [apiKey, apiSecret, seconds = '300'] = process.argv.slice(2);
if (!apiKey || !apiSecret || !/^\d+$/.test(seconds)) {
  console.error('usage: npm run -s v2-token -- <api_key> <api_secret> [seconds]');
  process.exit(2);
}
const token = await new SignJWT({})
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setIssuer(apiKey)
  .setExpirationTime(Math.floor(Date.now() / 1000) + Number(seconds))
  .sign(new TextEncoder().encode(apiSecret));
console.log(token);
