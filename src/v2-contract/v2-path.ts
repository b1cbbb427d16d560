import { Failure, type FieldNaming } from '../shared/failure.js';

/**
 * One value of a v2 path, percent-encoded as one segment: a `/` or `?` in a value never changes
 * the path (`/users/${email}/settings`). v2Route (v2-route.ts) builds every v2 path with it.
 *
 * A value of `.` or `..` is refused: it would stay a dot segment after encoding (and `%2E` is one
 * too to a URL parser), so an upstream that normalises paths would call another route
 * (`DELETE /groups/G/members/..` → `DELETE /groups/G`).
 */
export function pathSegment(value: string | number): string {
  const text = String(value);
  if (text === '.' || text === '..') throw new DotSegmentValue(text);
  return encodeURIComponent(text);
}

/** A path value that would be a dot segment: the caller's input named no resource. */
export class DotSegmentValue extends Failure {
  override readonly name = 'DotSegmentValue';
  readonly kind = 'dot-segment-value';
  constructor(readonly value: string) {
    super(`A path value may not be "${value}".`);
  }

  /** Named by the v1 field that holds the value (`id` when none does). */
  override ownMessage(naming: FieldNaming): string {
    return `Invalid parameter: ${naming.fieldHolding(this.value) ?? 'id'}. "${this.value}" names no resource.`;
  }
}
