import { integrationOf, type RecordedCall } from './calls.js';
import { CREDENTIAL_PARAMS, callRedactor, recordRedactor, recordableParams } from './secrets.js';

/**
 * HAR (HTTP Archive) captures of a legacy integration's v1 traffic, from a browser or a proxy,
 * turned into recorded calls: each `POST .../v1/<path>` entry, its form fields (query string and
 * urlencoded body, body wins) without the credentials, and its answer; secrets replaced as the
 * recorder replaces them (secrets.ts), the captured api_secret by value too.
 */
interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request: { method: string; url: string; postData?: { mimeType?: string; text?: string; params?: { name: string; value?: string }[] } };
  response?: { content?: { mimeType?: string; text?: string; encoding?: string } };
}

export function callsFromHar(har: unknown): RecordedCall[] {
  const entries = (har as { log?: { entries?: HarEntry[] } }).log?.entries;
  if (!Array.isArray(entries)) throw new Error('Not a HAR file: no log.entries');
  const calls: RecordedCall[] = [];
  for (const entry of entries) {
    const url = new URL(entry.request.url);
    const at = url.pathname.search(/\/v1\//i);
    if (entry.request.method.toUpperCase() !== 'POST' || at < 0) continue;
    const params: Record<string, string | string[]> = {};
    const secrets: string[] = [];
    let apiKey: string | undefined;
    const put = (name: string, value: string) => {
      if (name === 'api_secret') secrets.push(value);
      if (name === 'api_key') apiKey = value;
      if (CREDENTIAL_PARAMS.has(name)) return;
      if (name.endsWith('[]')) {
        const key = name.slice(0, -2);
        const list = params[key];
        params[key] = Array.isArray(list) ? [...list, value] : [value];
      } else params[name] = value;
    };
    for (const [name, value] of url.searchParams) put(name, value);
    const post = entry.request.postData;
    if (post?.params?.length)
      for (const p of post.params) put(decodeURIComponent(p.name), decodeURIComponent((p.value ?? '').replace(/\+/g, ' ')));
    else if (post?.text) for (const [name, value] of new URLSearchParams(post.text)) put(name, value);
    const dataType = String(params.data_type ?? '').toUpperCase() === 'XML' ? 'XML' : 'JSON';
    delete params.data_type;
    const content = entry.response?.content;
    const text = content?.encoding === 'base64' && content.text ? Buffer.from(content.text, 'base64').toString('utf8') : content?.text;
    let answer: unknown = text;
    if (dataType === 'JSON' && text) {
      try {
        answer = JSON.parse(text);
      } catch {
        // keep the text: a compare shows it as a type difference
      }
    }
    const redactor = callRedactor(recordRedactor(secrets), params, answer);
    calls.push({
      time: entry.startedDateTime ?? '',
      path: redactor.redact(
        url.pathname
          .slice(at + 3)
          .toLowerCase()
          .replace(/\/+$/, ''),
      ),
      params: recordableParams(params, redactor),
      dataType,
      answer: redactor.redact(answer),
      v2Calls: [],
      ms: entry.time ?? 0,
      ...(apiKey === undefined ? {} : { integration: integrationOf(apiKey) }),
    });
  }
  return calls;
}
