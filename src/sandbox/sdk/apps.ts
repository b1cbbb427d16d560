import { apiCredential } from '../ids.js';
import type { Account } from '../model/account.js';

/**
 * The sandbox's Meeting SDK apps: today a page signs its join with an SDK app's key and secret (an
 * app of its own, apart from the account's API credentials and OAuth app), and the service knows
 * which account the app belongs to. One app per account, made on first asking through the control
 * API, so a test or the offline page can sign the way v1gate does for a key with an SDK app.
 * Kept with the sandbox's data (SANDBOX_DATA_FILE), so the SDK app a credential map names keeps
 * working after a restart.
 */

export interface SdkApp {
  key: string;
  secret: string;
  accountId: string;
}

export class SdkApps {
  private readonly byKey = new Map<string, SdkApp>();
  private readonly byAccount = new Map<string, SdkApp>();

  /** The account's app, made the first time it is asked for. */
  of(account: Account): SdkApp {
    let app = this.byAccount.get(account.id);
    if (!app) {
      app = { key: apiCredential(16), secret: apiCredential(27), accountId: account.id };
      this.byAccount.set(account.id, app);
      this.byKey.set(app.key, app);
    }
    return app;
  }

  withKey(key: string): SdkApp | undefined {
    return this.byKey.get(key);
  }

  /** Every app, to be kept. */
  all(): SdkApp[] {
    return [...this.byAccount.values()];
  }

  /** An app kept from an earlier run, unless its account has one already. */
  restore(app: SdkApp): void {
    if (this.byAccount.has(app.accountId) || this.byKey.has(app.key)) return;
    this.byAccount.set(app.accountId, app);
    this.byKey.set(app.key, app);
  }
}
