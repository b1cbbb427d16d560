/**
 * The text of an answer's body, or undefined once it passes `maxBytes`: the rest is never read
 * (leaving the loop cancels a web stream and destroys a Node one), so an answer far larger than
 * its kind ever is (a token, an account list) costs at most `maxBytes` of memory, not its size.
 * For the v2 API's own answers the client has a reader of its own, tuned for the hot path.
 */
export async function textAtMost(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<string | undefined> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
