/**
 * An OAuth access token for v2 of a running sandbox, as the account whose legacy pair is given:
 * today's v2 takes no JWT, so the pair is looked up in the sandbox's account list (its control API,
 * which shows the secrets to this machine's own terminal only), and the account's server-to-server
 * app is traded at the sandbox's token endpoint as any OAuth client trades it.
 */

interface ListedAccount {
  id: string;
  api_key: string;
  api_secret?: string;
  oauth_apps: { client_id: string; client_secret?: string }[];
}

/** `origin`: where the sandbox's /sandbox and /oauth are (a gateway with the embedded sandbox, or `npm run sandbox`). */
export async function sandboxToken(origin: string, apiKey: string, apiSecret: string): Promise<string> {
  const listed = await fetch(`${origin}/sandbox/accounts`).catch((error: Error) => {
    // fetch says only "fetch failed"; its cause names what happened (ECONNREFUSED: nothing listens there).
    const cause = error.cause as { code?: string; message?: string } | undefined;
    const why = cause?.code ?? cause?.message ?? error.message;
    throw new Error(
      `cannot reach ${origin} (${why}): is npm start or npm run sandbox running there? Its origin is this command's third argument`,
    );
  });
  if (!listed.ok)
    throw new Error(`${origin}/sandbox/accounts answered ${listed.status}: is this a v1gate sandbox, reached from this machine?`);
  const { accounts } = (await listed.json()) as { accounts: ListedAccount[] };
  const account = accounts.find((a) => a.api_key === apiKey && a.api_secret === apiSecret);
  const app = account?.oauth_apps.find((a) => a.client_secret !== undefined);
  if (!account || !app?.client_secret)
    throw new Error(`no account of the sandbox at ${origin} has this api_key and api_secret and an OAuth app`);
  const query = new URLSearchParams({ grant_type: 'account_credentials', account_id: account.id });
  const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
  const answer = await fetch(`${origin}/oauth/token?${query.toString()}`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
  const body = (await answer.json()) as { access_token?: string; reason?: string };
  if (!answer.ok || !body.access_token)
    throw new Error(`the token endpoint answered ${answer.status}: ${body.reason ?? 'no access token'}`);
  return body.access_token;
}
