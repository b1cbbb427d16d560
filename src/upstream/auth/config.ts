import { z } from 'zod';
import { envSection, onOff } from '../../shared/env.js';
import { CredentialFileError, readCredentialFile, type CredentialEntry } from './credential-map.js';

/** The credential map and server-to-server OAuth toward v2. */
export interface CredentialConfig {
  /** V2_CREDENTIALS_FILE, read and checked at start (undefined: no map, every key is its own v2 credential). */
  file: string | undefined;
  entries: readonly CredentialEntry[];
  /** Refuse keys the map does not name, instead of signing for them with their own secret. */
  only: boolean;
  /** Where OAuth apps without a `token_url` ask for tokens; undefined: the v2 service's origin + `/oauth/token`. */
  defaultTokenUrl: string | undefined;
}

/** The credentials section of the configuration (src/config.ts reads every section together). */
export const CREDENTIAL_SETTINGS = envSection({
  title: "Credentials toward v2 (today's v2: server-to-server OAuth)",
  variables: {
    V2_CREDENTIALS_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        'the credential map (JSON; npm run credentials manages it): v1 keys, their secrets as hashes, and the v2 app each uses; unset: each api_key signs its own v2 JWT',
      ),
    V2_CREDENTIALS_ONLY: onOff
      .default(false)
      .describe('refuse api_keys the credential map does not name; default off (they sign v2 calls with their own secret)'),
    V2_OAUTH_TOKEN_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://auth.example.com/oauth/token' })
      .optional()
      .describe(
        "the OAuth token endpoint for apps without their own token_url; unset: https://zoom.us/oauth/token for the service's API host, else the v2 origin + /oauth/token",
      ),
  },
  build: (e, problem): CredentialConfig | undefined => {
    if (e.V2_CREDENTIALS_ONLY && !e.V2_CREDENTIALS_FILE) {
      problem('V2_CREDENTIALS_ONLY', 'needs V2_CREDENTIALS_FILE: with no map, every key would be refused');
      return undefined;
    }
    let entries: readonly CredentialEntry[] = [];
    if (e.V2_CREDENTIALS_FILE) {
      try {
        entries = readCredentialFile(e.V2_CREDENTIALS_FILE);
      } catch (error) {
        if (!(error instanceof CredentialFileError)) throw error;
        for (const p of error.problems) problem('V2_CREDENTIALS_FILE', `${error.file}: ${p}`);
        return undefined;
      }
    }
    return { file: e.V2_CREDENTIALS_FILE, entries, only: e.V2_CREDENTIALS_ONLY, defaultTokenUrl: e.V2_OAUTH_TOKEN_URL };
  },
});
