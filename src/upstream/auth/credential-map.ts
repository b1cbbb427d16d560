import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { secretHashProblem, verifySecret } from './secret-hash.js';
import type { V2Identity } from './v2-identity.js';
import { RATE_LIMIT_PLANS } from '../../v2-contract/rate-limit-plans.js';

/**
 * The credential map (V2_CREDENTIALS_FILE): which v1 api_keys v1gate knows, each with its v1 secret
 * kept only as a salted hash, and whom to act as toward v2 for it. A mapped key's secret is checked
 * here, locally: a wrong one is refused without any v2 call, and the v1 secret is no longer a v2
 * secret, so it can be rotated alone (`previous_secrets` keeps an old one valid until a set time).
 */

const nonEmpty = z.string().trim().min(1, 'must not be empty');

const jwtApp = z.strictObject({ kind: z.literal('jwt'), key: nonEmpty, secret: nonEmpty });
const oauthApp = z.strictObject({
  kind: z.literal('oauth'),
  account_id: nonEmpty,
  client_id: nonEmpty,
  client_secret: nonEmpty,
  token_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
});
/** A Meeting SDK app (its key and secret, kept as the OAuth client secret is): what /sdk/signature signs with for the key. */
const sdkApp = z.strictObject({ key: nonEmpty, secret: nonEmpty });
const secretHash = nonEmpty.superRefine((value, ctx) => {
  const problem = secretHashProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const entry = z.strictObject({
  api_key: nonEmpty,
  secret_hash: secretHash,
  previous_secrets: z
    .array(z.strictObject({ secret_hash: secretHash, until: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time' }) }))
    .max(8)
    .default([]),
  v2: z.discriminatedUnion('kind', [jwtApp, oauthApp], { error: 'must be {"kind":"jwt",...} or {"kind":"oauth",...}' }),
  sdk: sdkApp.optional(),
  /** The v2 account's plan, which sizes the rate limits its calls are held to; absent: OUTBOUND_DEFAULT_PLAN. */
  plan: z.enum(RATE_LIMIT_PLANS, { error: `must be one of ${RATE_LIMIT_PLANS.join(', ')}` }).optional(),
});
const fileSchema = z.array(entry).max(100_000);

export type CredentialEntry = z.output<typeof entry>;
export type SdkApp = z.output<typeof sdkApp>;

/** Accepted: until when the secret it matched stays valid (epoch ms; Infinity for the current secret). */
export type Verdict = { kind: 'unmapped' } | { kind: 'refused' } | { kind: 'accepted'; v2: V2Identity; untilMs: number };

const UNMAPPED: Verdict = { kind: 'unmapped' };
const REFUSED: Verdict = { kind: 'refused' };

/** A file that cannot be used: every problem found, each a line naming where it is. */
export class CredentialFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`V2_CREDENTIALS_FILE ${file}: ${problems.join('; ')}`);
    this.name = 'CredentialFileError';
  }
}

function identityOf({ v2, plan }: CredentialEntry): V2Identity {
  const planned = plan ? { plan } : {};
  if (v2.kind === 'jwt') return { kind: 'jwt', key: v2.key, secret: v2.secret, ...planned };
  return {
    kind: 'oauth',
    accountId: v2.account_id,
    clientId: v2.client_id,
    clientSecret: v2.client_secret,
    ...(v2.token_url ? { tokenUrl: v2.token_url } : {}),
    ...planned,
  };
}

/** `[2].v2.client_secret`: where in the file a problem is (the whole file when the path is empty). */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the file';
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('')
    .replace(/^\./, '');
}

/** The entries of a credentials file's text, or every problem with it (never echoing a value: they are secrets). */
export function parseCredentialFile(text: string, file: string): CredentialEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CredentialFileError(file, [`is not JSON (${(error as Error).message.replace(/\s+in JSON.*$/, '')})`]);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new CredentialFileError(
      file,
      parsed.error.issues.map((issue) => `${pathText(issue.path)} ${issue.message}`),
    );
  }
  const seen = new Set<string>();
  const duplicates = parsed.data.map((e, i) => (seen.has(e.api_key) ? `[${i}].api_key appears twice` : (seen.add(e.api_key), undefined)));
  const problems = duplicates.filter((p): p is string => p !== undefined);
  if (problems.length) throw new CredentialFileError(file, problems);
  return parsed.data;
}

export function readCredentialFile(file: string): CredentialEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CredentialFileError(file, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return parseCredentialFile(text, file);
}

interface Remembered {
  /** Accepted: until when (epoch ms; Infinity for the current secret). Refused: undefined. */
  acceptedUntilMs: number | undefined;
}

export interface CredentialMapOptions {
  now?: () => number;
  /** Pairs remembered after a hash check, accepted or refused. */
  memoSize?: number;
  /** The hash check (tests count its calls). */
  verifySecret?: (secret: string, hash: string) => Promise<boolean>;
}

export class CredentialMap {
  private readonly byKey: ReadonlyMap<string, CredentialEntry>;
  private readonly identities = new Map<string, V2Identity>();
  /** A process-local key: the memo holds HMACs of key and secret, never a secret, and none an outsider can precompute. */
  private readonly memoKey = randomBytes(32);
  private readonly memo: LRUCache<string, Remembered>;
  private readonly now: () => number;
  private readonly matches: (secret: string, hash: string) => Promise<boolean>;

  constructor(entries: readonly CredentialEntry[], options: CredentialMapOptions = {}) {
    this.matches = options.verifySecret ?? verifySecret;
    this.byKey = new Map(entries.map((e) => [e.api_key, e]));
    for (const e of entries) this.identities.set(e.api_key, identityOf(e));
    this.memo = new LRUCache({ max: options.memoSize ?? 10_000 });
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.byKey.size;
  }

  entries(): CredentialEntry[] {
    return [...this.byKey.values()];
  }

  has(apiKey: string): boolean {
    return this.byKey.has(apiKey);
  }

  /** The key's entry: its secrets' hashes (undefined for an unmapped key). */
  entryOf(apiKey: string): CredentialEntry | undefined {
    return this.byKey.get(apiKey);
  }

  /** Remembers a pair proven elsewhere (its verifier, proven-secrets.ts) as if it had been hashed here. */
  remember(apiKey: string, secret: string, acceptedUntilMs: number): void {
    this.memo.set(this.digestOf(apiKey, secret), { acceptedUntilMs });
  }

  /** Whom v1gate acts as for a mapped key (undefined for an unmapped one). */
  identityOf(apiKey: string): V2Identity | undefined {
    return this.identities.get(apiKey);
  }

  /** The Meeting SDK app a mapped key signs with (undefined: none, the 1.9.1 signature with its v1 secret). */
  sdkAppOf(apiKey: string): SdkApp | undefined {
    return this.byKey.get(apiKey)?.sdk;
  }

  /**
   * The verdict on a pair when no hashing is due: an unmapped key (left to v2, unless the gateway
   * refuses unmapped keys), or a pair checked before (remembered, refused ones too, so a repeated
   * wrong secret costs no hashing). Undefined: the pair is new and `verify` must hash it.
   */
  known(apiKey: string, secret: string): Verdict | undefined {
    if (!this.byKey.has(apiKey)) return UNMAPPED;
    const remembered = this.memo.get(this.digestOf(apiKey, secret));
    return remembered && this.verdictOf(apiKey, remembered);
  }

  /** Checks a pair, hashing it when it is new: the secret must match the key's hash, or a previous one still inside its time. */
  async verify(apiKey: string, secret: string): Promise<Verdict> {
    const found = this.byKey.get(apiKey);
    if (!found) return UNMAPPED;
    const digest = this.digestOf(apiKey, secret);
    let remembered = this.memo.get(digest);
    if (!remembered) {
      remembered = { acceptedUntilMs: await this.acceptedUntil(found, secret) };
      this.memo.set(digest, remembered);
    }
    return this.verdictOf(apiKey, remembered);
  }

  /** A pair's name in this map, holding neither its key nor its secret readably: what concurrent checks of one pair share. */
  pairId(apiKey: string, secret: string): string {
    return this.digestOf(apiKey, secret);
  }

  private digestOf(apiKey: string, secret: string): string {
    return createHmac('sha256', this.memoKey).update(apiKey).update('\0').update(secret).digest('base64');
  }

  private verdictOf(apiKey: string, remembered: Remembered): Verdict {
    const until = remembered.acceptedUntilMs;
    if (until === undefined || until <= this.now()) return REFUSED;
    return { kind: 'accepted', v2: this.identities.get(apiKey)!, untilMs: until };
  }

  private async acceptedUntil(found: CredentialEntry, secret: string): Promise<number | undefined> {
    if (await this.matches(secret, found.secret_hash)) return Infinity;
    for (const previous of found.previous_secrets) {
      const until = Date.parse(previous.until);
      if (until > this.now() && (await this.matches(secret, previous.secret_hash))) return until;
    }
    return undefined;
  }
}
