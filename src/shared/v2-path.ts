/**
 * Build a v2 path with every interpolated value percent-encoded as one path segment:
 * v2path`/users/${email}/settings` never lets a `/` or `?` in a value change the path.
 *
 * A value of `.` or `..` is refused: it would stay a dot segment after encoding (and `%2E` is one
 * too to a URL parser), so an upstream that normalises paths would call another route
 * (`DELETE /groups/G/members/..` → `DELETE /groups/G`).
 */
export function v2path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const text = String(value);
    if (text === '.' || text === '..') throw new DotSegmentValue(text);
    out += encodeURIComponent(text) + (strings[i + 1] ?? '');
  });
  return out;
}

/** A path value that would be a dot segment: the caller's input named no resource. */
export class DotSegmentValue extends Error {
  override readonly name = 'DotSegmentValue';
  constructor(readonly value: string) {
    super(`A path value may not be "${value}".`);
  }
}
