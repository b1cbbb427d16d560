import { V1_ERROR_TABLES, type ErrorText } from './error-text-row.js';

/**
 * The error texts of reading a call (mappings/error-texts.ts is the whole table): credentials, the
 * path, the parameters, the body and the connection it came on.
 */
// eslint-disable-next-line max-lines-per-function -- data: the error texts of reading a call
function rows() {
  return {
    'missing-credentials': {
      kinds: ['missing-credentials'],
      code: 101,
      text: 'Api key and secret are required.',
      where: 'v1gate, a call without api_key or api_secret',
      source:
        'moodle-mod_zoom\'s v1-era settings page tells an unconfigured site by the substring "Api key and secret are required" (as reported from its production use; the file was not found in public search, so the trailing period is ours)',
    },
    'key-not-allowed': {
      kinds: ['key-not-allowed', 'key-not-mapped'],
      code: 102,
      text: 'Invalid api key or secret: this api_key may not use this gateway.',
      where: 'v1gate, an api_key outside ALLOWED_API_KEYS or (V2_CREDENTIALS_ONLY) the credential map',
      source:
        "no public capture of v1's 102 text was found; it opens as the pair refusal below does and says it is the gateway's list, which the caller can act on",
    },
    'pair-refused': {
      kinds: ['v2-bad-credentials', 'secret-refused'],
      code: 102,
      text: 'Invalid api key or secret: the api_key and api_secret do not match.',
      where: 'v1gate, for a pair v2 refuses (401) or the credential map refuses without asking v2',
      source:
        "no public capture of v1's 102 text was found; code 102 is the v1 spec's for a key and secret that do not match (docs/decisions.md), and one text for both checks tells a caller nothing about which refused",
    },
    'bad-data-type': {
      kinds: ['bad-data-type'],
      code: 300,
      text: 'Invalid parameter: data_type. Must be JSON or XML.',
      where: 'v1gate, a data_type other than JSON or XML',
      source: `v1's "Invalid parameter: <field>" form (${V1_ERROR_TABLES}: "Invalid parameter: password", "Invalid parameter: occurrence_ids"), with what v1 accepted`,
    },
    'invalid-parameter': {
      kinds: ['v1-error'],
      code: 300,
      text: 'Invalid parameter: <field>. <what is wrong>',
      where: 'v1gate, a parameter of the wrong type or out of range',
      source: `v1's "Invalid parameter: <field>" (${V1_ERROR_TABLES}, UserAPIs.md and WebinarAPIs.md); the sentence after it says what v1 accepts`,
    },
    'missing-parameter': {
      kinds: ['v1-error'],
      code: 300,
      text: '<field> is required.',
      where: 'v1gate, a required parameter missing',
      source: `v1's "<Field> is required." (${V1_ERROR_TABLES}, UserAPIs.md: "Email is required.", "Vanity name is required."), naming the field as the call spells it`,
    },
    'dot-segment-value': {
      kinds: ['dot-segment-value'],
      code: 300,
      text: 'Invalid parameter: <field>. "<value>" names no resource.',
      where: 'v1gate, a value of `.` or `..` that would become a v2 path segment',
      source: 'v1\'s "Invalid parameter: <field>" form (as above); no v1 id was ever a dot segment',
    },
    'not-a-post': {
      kinds: ['not-a-post'],
      code: 300,
      text: 'v1 calls are POST requests, not <method>.',
      where: 'v1gate, a /v1 call or the SDK signer asked with another method (the signer with HTTP 405)',
      source: "ours: no public capture of v1's answer to a GET was found; the text names the method sent",
    },
    'unknown-path': {
      kinds: ['unknown-path'],
      code: 300,
      text: 'Unknown v1 endpoint: <path>.',
      where: 'v1gate, a /v1 path it does not serve',
      source: "ours: no public capture of v1's answer to an unknown path was found; the text names the path asked for",
    },
    'dot-segment-path': {
      kinds: ['dot-segment-path'],
      code: 300,
      text: 'Invalid path: a path may not contain "." or ".." segments.',
      where: 'v1gate, a request target with a dot segment',
      source: 'ours: v1 had no such refusal (a proxy resolved the segments); it is refused, never resolved',
    },
    'undecodable-params': {
      kinds: ['undecodable-params'],
      code: 300,
      text: '<Parameter name, or A parameter name> has a malformed percent-escape "%<hex>".',
      where: 'v1gate, a form field (or a field name) it cannot decode',
      source: 'ours: v1 read such bodies its own way, unrecorded; the text names the field and the escape',
    },
    'unreadable-body': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The request body is larger than the <max> bytes v1gate accepts.',
      where: 'v1gate, a body over V1_MAX_BODY_BYTES',
      source: "ours: v1's own limit and its text were not published",
    },
    'body-cut-short': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The request body ended after <received> of the <announced> bytes its Content-Length announced. Count Content-Length in bytes, not characters.',
      where: 'v1gate, a body that stalls (V1_BODY_TIMEOUT_MS) before its Content-Length is reached',
      source: 'ours, as above: the second sentence names the usual cause, a length counted in characters',
    },
    'body-stopped': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The request body stopped arriving before it was complete.',
      where: 'v1gate, a chunked body that stalls (V1_BODY_TIMEOUT_MS) before its last chunk',
      source: 'ours, as above',
    },
    'body-over-announced': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The request body is longer than its Content-Length announced. Count Content-Length in bytes, not characters.',
      where: 'v1gate, bytes after a body that Node cannot read as the next request',
      source: 'ours, as above',
    },
    'body-too-slow': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The request did not arrive in full within <ms> ms.',
      where: 'v1gate, a request still arriving at V1_REQUEST_TIMEOUT_MS',
      source: 'ours, as above',
      notDrivenHere: 'needs a body that drips for longer than the request deadline: test/hostile/slow-requests.test.ts',
    },
    'body-busy': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'v1gate is holding as many request bodies as it may at once (<bytes> bytes in all): send the request again shortly.',
      where: 'v1gate, a body past V1_MAX_BUFFERED_BYTES of bodies held at once',
      source: 'ours, as above: the text says the refusal is passing',
      notDrivenHere: 'needs many large bodies held at once: test/hostile/many-bodies.test.ts',
    },
    'body-aborted': {
      kinds: ['unreadable-body'],
      code: 300,
      text: 'The client went away before sending the whole body.',
      where: 'v1gate, a client that closed its connection while its body was being read (nobody is left to read it)',
      source: 'ours: it says why nothing was run',
    },
    'too-many-params': {
      kinds: ['undecodable-params'],
      code: 300,
      text: 'Too many parameters: a request may carry at most <max> fields.',
      where: 'v1gate, a request of more than V1_MAX_FIELDS fields, query string and body together',
      source: "ours: v1's own limit was not published; the text names ours",
    },
    'malformed-multipart': {
      kinds: ['undecodable-params'],
      code: 300,
      text: 'The multipart body is malformed (check its boundary and parts).',
      where: 'v1gate, a multipart/form-data body it cannot split into parts',
      source: 'ours: v1 read such bodies its own way, unrecorded',
    },
    'unsupported-content-type': {
      kinds: ['undecodable-params'],
      code: 300,
      text: 'Unsupported Content-Type "<type>": v1 calls send form fields (application/x-www-form-urlencoded or multipart/form-data).',
      where: 'v1gate, a body of another media type',
      source: "ours: v1's request examples send forms; the text names the two it reads",
    },
    'unsupported-charset': {
      kinds: ['undecodable-params'],
      code: 300,
      text: 'Unsupported charset "<charset>".',
      where: 'v1gate, a form whose Content-Type names a charset it has no decoder for',
      source: 'ours, as above',
    },
    'malformed-request': {
      kinds: ['malformed-request'],
      code: 300,
      text: 'Malformed HTTP request (<parser code>).',
      where: "v1gate, bytes Node's HTTP parser cannot read as a request (HTTP 400, the connection closed)",
      source: "ours: a v1 envelope in place of the bare 400 a proxy would answer; the parser's code names the fault",
    },
    'connect-refused': {
      kinds: ['malformed-request'],
      code: 300,
      text: 'CONNECT is not served: v1gate is no proxy, and v1 calls are POST requests.',
      where: 'v1gate, a CONNECT request (HTTP 400, the connection closed)',
      source: 'ours, as above',
    },
    'headers-too-slow': {
      kinds: ['malformed-request'],
      code: 300,
      text: 'The request headers did not arrive within <ms> ms.',
      where: 'v1gate, headers still arriving at V1_HEADERS_TIMEOUT_MS (HTTP 408, the connection closed)',
      source: 'ours, as above',
    },
    'malformed-target': {
      kinds: ['malformed-request'],
      code: 300,
      text: 'Malformed request target (<reason>).',
      where: 'v1gate, a request line whose target is no URL (`POST *`) (HTTP 400, the connection closed)',
      source: 'ours, as above',
    },
    'not-run': {
      kinds: ['not-run'],
      code: 300,
      text: 'Not run: an earlier request on this connection closed it.',
      where: 'v1gate, a request pipelined behind one whose answer closed the connection',
      source: 'ours: says the client must send it again',
      notDrivenHere:
        'no client reads it: it is answered on a connection already closing, after the answer that closed it; the test shows the request behind was not run and its answer not sent: test/gateway/connections.test.ts',
    },
  } as const satisfies Record<string, ErrorText>;
}

export const REQUEST_ERROR_TEXTS = rows();
