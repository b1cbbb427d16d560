import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { textAtMost } from './text-at-most.js';

/** A stream of `count` chunks of 1 KiB that counts how many were pulled from it. */
function counted(count: number) {
  const pulled = { chunks: 0 };
  const stream = Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) {
        pulled.chunks++;
        yield Buffer.alloc(1024, 'a');
      }
    })(),
  );
  return { stream, pulled };
}

describe('textAtMost', () => {
  it('gives the whole text of a body within the bound, over chunk boundaries', async () => {
    const bytes = Buffer.from('{"name":"Zoë 会议"}');
    const chunks = [...bytes].map((byte) => Uint8Array.of(byte)); // a multi-byte character split across chunks
    expect(await textAtMost(Readable.from(chunks), bytes.length)).toBe('{"name":"Zoë 会议"}');
  });

  it('stops reading a Node stream at the bound: undefined, and the rest never pulled', async () => {
    const { stream, pulled } = counted(10_000);
    expect(await textAtMost(stream, 4 * 1024)).toBeUndefined();
    expect(pulled.chunks).toBeLessThan(10);
    expect(stream.destroyed).toBe(true);
  });

  it('cancels a web stream at the bound', async () => {
    let cancelled = false;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await textAtMost(stream, 4 * 1024)).toBeUndefined();
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('reads an absent body as empty', async () => {
    expect(await textAtMost(null, 10)).toBe('');
  });
});
