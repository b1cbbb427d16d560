import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CredentialFileError, type SdkApp } from '../src/upstream/auth/credential-map.js';
import {
  addEntry,
  newLegacySecret,
  readOrEmpty,
  rotateEntry,
  setSdkApp,
  writeCredentialFile,
  type V2App,
} from '../src/upstream/auth/credential-edits.js';
import { hashSecret } from '../src/upstream/auth/secret-hash.js';
import { defaultTokenUrlOf } from '../src/upstream/auth/v2-credentials.js';
import { RATE_LIMIT_PLANS, type RateLimitPlan } from '../src/v2-contract/rate-limit-plans.js';

const USAGE = `usage: npm run -s credentials -- <command> [options]

Manages the credential map (V2_CREDENTIALS_FILE): which v1 api_keys v1gate serves, each v1 secret
kept only as a salted hash, and the v2 credentials v1gate uses for the key.

  hash [SECRET]              print the secret_hash of SECRET (read from standard input when absent)
  add --file F --api-key K --secret S  (--jwt-key K2 --jwt-secret S2
                             | --account-id A --client-id C --client-secret CS [--token-url URL])
                             [--sdk-key SK --sdk-secret SS] [--plan pro|business] [--replace]
                             map a v1 key (with the secret its clients use today) to a v2 JWT app or
                             a server-to-server OAuth app, and optionally to a Meeting SDK app that
                             /sdk/signature signs with; --plan is the v2 account's plan, whose rate
                             limits its calls are held to (OUTBOUND_DEFAULT_PLAN when not given);
                             S, S2, CS and SS may be "-" to read them from standard input, one per
                             line, in that order
  sdk --file F --api-key K (--sdk-key SK --sdk-secret SS | --remove)
                             give a mapped key a Meeting SDK app (or replace or remove it); SS may be
                             "-" to read it from standard input
  rotate --file F --api-key K [--new-secret S] [--keep-old-until ISO-TIME | --keep-old-for HOURS]
                             give the key a new v1 secret (printed once when not given); the old one
                             is accepted until the stated time (24 hours from now by default); v2 is
                             not touched
  check --file F [--scopes [--token-url URL]]
                             validate the file; every problem on its own line; with --scopes, ask
                             each OAuth app for a token (at its token_url, else URL, else
                             V2_BASE_URL's) and list the v1 endpoints its scopes cannot serve
  list --file F              the keys in the file, the kind of v2 app each uses, its plan and its SDK key (no secrets)
`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        file: { type: 'string' },
        'api-key': { type: 'string' },
        secret: { type: 'string' },
        'new-secret': { type: 'string' },
        'jwt-key': { type: 'string' },
        'jwt-secret': { type: 'string' },
        'account-id': { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        'token-url': { type: 'string' },
        'sdk-key': { type: 'string' },
        'sdk-secret': { type: 'string' },
        plan: { type: 'string' },
        remove: { type: 'boolean', default: false },
        'keep-old-until': { type: 'string' },
        'keep-old-for': { type: 'string' },
        replace: { type: 'boolean', default: false },
        scopes: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
})();

/** Values given as "-" come from standard input, one line each, in the order asked. */
const stdinLines = (() => {
  let lines: string[] | undefined;
  return () => (lines ??= readFileSync(0, 'utf8').split(/\r?\n/));
})();
let stdinAt = 0;
function secretValue(name: string): string {
  const value = values[name as keyof typeof values];
  if (typeof value !== 'string' || value === '') return fail(`--${name} is required.\n\n${USAGE}`);
  if (value !== '-') return value;
  const line = stdinLines()[stdinAt++]?.trim();
  return line || fail(`--${name} - : no line for it on standard input.`);
}

function required(name: 'file' | 'api-key'): string {
  return values[name] || fail(`--${name} is required.\n\n${USAGE}`);
}

function v2AppOf(): V2App {
  const jwt = values['jwt-key'] !== undefined || values['jwt-secret'] !== undefined;
  const oauth = values['account-id'] !== undefined || values['client-id'] !== undefined || values['client-secret'] !== undefined;
  if (jwt === oauth) return fail(`Give either --jwt-key and --jwt-secret, or --account-id, --client-id and --client-secret.\n\n${USAGE}`);
  if (jwt) return { kind: 'jwt', key: values['jwt-key'] ?? fail('--jwt-key is required.'), secret: secretValue('jwt-secret') };
  return {
    kind: 'oauth',
    account_id: values['account-id'] ?? fail('--account-id is required.'),
    client_id: values['client-id'] ?? fail('--client-id is required.'),
    client_secret: secretValue('client-secret'),
    ...(values['token-url'] ? { token_url: values['token-url'] } : {}),
  };
}

/** The SDK app the options give: both its key and secret, or neither. */
function planOf(): RateLimitPlan | undefined {
  const plan = values.plan?.trim().toLowerCase();
  if (plan === undefined) return undefined;
  return RATE_LIMIT_PLANS.find((known) => known === plan) ?? fail(`--plan is ${RATE_LIMIT_PLANS.join(' or ')}.`);
}

function sdkAppOf(): SdkApp | undefined {
  if (values['sdk-key'] === undefined && values['sdk-secret'] === undefined) return undefined;
  const key = values['sdk-key'] || fail('--sdk-key is required with --sdk-secret.');
  return { key, secret: secretValue('sdk-secret') };
}

function keepOldUntil(now: Date): Date {
  if (values['keep-old-until'] && values['keep-old-for']) fail('Give --keep-old-until or --keep-old-for, not both.');
  if (values['keep-old-until']) {
    const at = new Date(values['keep-old-until']);
    return Number.isNaN(at.getTime()) ? fail('--keep-old-until must be an ISO 8601 time, e.g. 2026-12-01T00:00:00Z.') : at;
  }
  const hours = Number(values['keep-old-for'] ?? '24');
  if (!Number.isFinite(hours) || hours < 0) fail('--keep-old-for must be a number of hours.');
  return new Date(now.getTime() + hours * 3_600_000);
}

async function run(command: string | undefined): Promise<void> {
  switch (command) {
    case 'hash': {
      const secret = positionals[1] ?? stdinLines()[0]?.trim();
      if (!secret) fail('hash: give the secret, or pipe it on standard input.');
      console.log(await hashSecret(secret));
      return;
    }
    case 'add': {
      const file = required('file');
      const apiKey = required('api-key');
      const secret = secretValue('secret');
      const v2 = v2AppOf();
      const sdk = sdkAppOf();
      const plan = planOf();
      const entries = await addEntry(readOrEmpty(file), {
        apiKey,
        secret,
        v2,
        ...(sdk ? { sdk } : {}),
        ...(plan ? { plan } : {}),
        replace: values.replace ?? false,
      });
      writeCredentialFile(file, entries);
      console.log(`${file}: api_key ${apiKey} mapped (${entries.length} key${entries.length === 1 ? '' : 's'} in the file).`);
      return;
    }
    case 'rotate': {
      const file = required('file');
      const apiKey = required('api-key');
      const now = new Date();
      const until = keepOldUntil(now);
      const newSecret = values['new-secret'] ? secretValue('new-secret') : newLegacySecret();
      writeCredentialFile(file, await rotateEntry(readOrEmpty(file), { apiKey, newSecret, keepOldUntil: until, now }));
      if (!values['new-secret']) console.log(newSecret);
      console.error(
        `${file}: api_key ${apiKey} has a new secret; the old one is accepted until ${until.toISOString()}. Send SIGHUP to a running gateway to load it.`,
      );
      return;
    }
    case 'sdk': {
      const file = required('file');
      const apiKey = required('api-key');
      const sdk = sdkAppOf();
      if ((sdk === undefined) === !values.remove) fail(`sdk: give --sdk-key and --sdk-secret, or --remove.\n\n${USAGE}`);
      writeCredentialFile(file, setSdkApp(readOrEmpty(file), { apiKey, sdk }));
      console.log(
        `${file}: api_key ${apiKey} ${sdk ? `signs meeting SDK joins with SDK key ${sdk.key}` : 'has no SDK app: its joins are signed the 1.9.1 way'}.`,
      );
      return;
    }
    case 'check': {
      const entries = readOrEmpty(required('file'));
      const withSdk = entries.filter((e) => e.sdk).length;
      console.log(`${values.file}: ${entries.length} key${entries.length === 1 ? '' : 's'} (${withSdk} with an SDK app), no problem.`);
      if (values.scopes) {
        const base = process.env.V2_BASE_URL;
        // Loaded only here: judging scopes reads every endpoint's declaration, which no other command needs.
        const { askAppScopes, scopeLines } = await import('../src/ops/app-scopes.js');
        const defaultTokenUrl = values['token-url'] ?? (base ? defaultTokenUrlOf(base) : 'https://zoom.us/oauth/token');
        for (const line of scopeLines(await askAppScopes(entries, { defaultTokenUrl, timeoutMs: 10_000 }))) console.log(line);
      }
      return;
    }
    case 'list': {
      for (const entry of readOrEmpty(required('file'))) {
        const until = entry.previous_secrets.map((p) => p.until).join(', ');
        const sdk = entry.sdk ? `\tsdk ${entry.sdk.key}` : '';
        const plan = entry.plan ? `\tplan ${entry.plan}` : '';
        console.log(`${entry.api_key}\t${entry.v2.kind}${plan}${sdk}${until ? `\told secret accepted until ${until}` : ''}`);
      }
      return;
    }
    default:
      fail(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE, command ? 2 : 0);
  }
}

if (values.help) {
  console.log(USAGE);
} else {
  await run(positionals[0]).catch((error: unknown) => {
    if (error instanceof CredentialFileError) fail(error.problems.map((p) => `${error.file}: ${p}`).join('\n'), 1);
    fail((error as Error).message, 1);
  });
}
