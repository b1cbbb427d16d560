// A v1 webhook receiver in its own process, as a real integration runs one. Behaviour from argv[2]:
//   strict        decodes exactly id, uuid, status, host_id; 400 to any other or missing key
//   type-content  expects type + content (JSON of id, uuid, host_id)
//   basic:U:P     strict, and 401 without Authorization: Basic base64(U:P)
//   flaky:N       500 to the first N posts, then strict
//   fail          always 500
//   redirect      302 to itself (a receiver that must not be followed)
//   sleep:MS      answers 200 after MS milliseconds
// Port from argv[3] (0: ephemeral). Prints `listening <port>` then one JSON line per accepted post.
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
