import { same, type Codec, type InputCodec, type OutputCodec } from '../../src/v1/field-map.js';

/**
 * A row's codec read both ways, for a test's round trip (a row used in one direction is typed with
 * that direction only): the identity for a row without one; a codec with one direction fails the test.
 */
export function bothWays(codec: InputCodec | OutputCodec | undefined): Codec {
  if (codec === undefined) return same;
  if (!('toV1' in codec) || !('toV2' in codec)) throw new Error(`The codec "${codec.name}" reads one direction only`);
  return codec as Codec;
}
