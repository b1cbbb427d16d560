/**
 * The pieces the call line's tests build hostile texts from: JSON's special characters, line
 * separators, control characters, lone surrogates and an astral character, the redaction mark, the
 * secrets as they are, percent-encoded, and named in a URL, an XML and a JSON body, a v2 tracking
 * id (its `=`s make the redactor look for named values), and a path.
 */
export function hostilePieces(known: { redacted: string; configured: string; own: readonly string[] }): string[] {
  const { redacted, configured, own } = known;
  return [
    '"',
    '\\',
    '<',
    '=',
    '\u2028',
    '\u2029',
    '\u0000',
    '\u001f',
    '\u007f',
    '\ud800',
    '\udc00',
    '\ud83d\ude00',
    'é',
    '…',
    redacted,
    configured,
    ...own,
    ...own.filter((secret) => encodeURIComponent(secret) !== secret).map(encodeURIComponent),
    '?zak=abcdefgh1234&x=1',
    '&pwd=zzzzzzzzzz',
    '<token>abcdefgh12</token>',
    '"token":"abcdefghijk"',
    'v=2.0;clid=aw1;rid=WEB_0123',
    '/users/',
  ];
}
