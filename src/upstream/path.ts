/**
 * Build a v2 path with every interpolated value percent-encoded as one path segment:
 * v2path`/users/${email}/settings` never lets a `/` or `?` in a value change the path.
 */
export function v2path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += encodeURIComponent(String(value)) + (strings[i + 1] ?? '');
  });
  return out;
}
