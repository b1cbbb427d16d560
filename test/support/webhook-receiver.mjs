// A v1 webhook receiver in its own process, as a real integration runs one. Behaviour from argv[2]:
//   strict        decodes exactly id, uuid, status, host_id; 400 to any other or missing key
//   type-content  expects type + content (JSON of id, uuid, host_id)
//   basic:U:P     strict, and 401 without Authorization: Basic base64(U:P)
//   flaky:N       500 to the first N posts, then strict
//   fail          always 500
//   redirect      302 to itself (a receiver that must not be followed)
//   sleep:MS      answers 200 after MS milliseconds
//   v2:SECRET     a v2 event endpoint (JSON): answers the URL validation challenge as an app whose
//                 secret token is SECRET, 200 to anything else; records every post with its headers
// Port from argv[3] (0: ephemeral). Prints `listening <port>` then one JSON line per accepted post.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';

const [mode = 'strict', portArg = '0'] = process.argv.slice(2);
const [kind, a, b] = mode.split(':');
let failuresLeft = kind === 'flaky' ? Number(a) : 0;
const STRICT_KEYS = ['host_id', 'id', 'status', 'uuid'];

function strictDecode(form) {
  const keys = [...form.keys()].sort();
  if (keys.join(',') !== STRICT_KEYS.join(',')) return undefined;
  return Object.fromEntries(form);
}

function answerV2(req, res, body) {
  const event = JSON.parse(body);
  const headers = {};
  for (const name of ['x-zm-signature', 'x-zm-request-timestamp', 'authorization']) headers[name] = req.headers[name];
  process.stdout.write(`${JSON.stringify({ url: req.url, body: event, contentType: req.headers['content-type'], headers })}\n`);
  if (event.event !== 'endpoint.url_validation') return res.writeHead(200).end();
  const { plainToken } = event.payload;
  const encryptedToken = createHmac('sha256', a).update(plainToken).digest('hex');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ plainToken, encryptedToken }));
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const answer = (status) => {
      res.writeHead(status);
      res.end();
    };
    const record = (decoded) =>
      process.stdout.write(`${JSON.stringify({ url: req.url, body: decoded, contentType: req.headers['content-type'] })}\n`);
    if (kind === 'v2') return answerV2(req, res, body);
    const form = new URLSearchParams(body);
    if (kind === 'fail') return answer(500);
    if (kind === 'redirect') {
      res.writeHead(302, { location: req.url });
      return res.end();
    }
    if (kind === 'sleep') return setTimeout(() => answer(200), Number(a));
    if (kind === 'flaky' && failuresLeft > 0) {
      failuresLeft--;
      return answer(500);
    }
    if (kind === 'basic' && req.headers.authorization !== `Basic ${Buffer.from(`${a}:${b}`).toString('base64')}`) return answer(401);
    if (kind === 'type-content') {
      const keys = [...form.keys()].sort().join(',');
      if (keys !== 'content,type') return answer(400);
      record({ type: form.get('type'), content: JSON.parse(form.get('content')) });
      return answer(200);
    }
    const decoded = strictDecode(form);
    if (!decoded) return answer(400);
    record(decoded);
    answer(200);
  });
});
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
