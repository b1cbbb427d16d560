/**
 * The declared v2 call a sent one is an instance of. Each endpoint declares the v2 calls it makes as
 * templates (`GET /users/{userId}`); a sent path matches the template whose segments it fits, more
 * literal segments first. Metrics label v2 calls with it (a bounded set, never a raw id), and a
 * failed answer check names the call with it.
 */

interface Template {
  readonly method: string;
  readonly label: string;
  /** One entry per segment: the literal, or undefined where a `{param}` matches any segment. */
  readonly segments: readonly (string | undefined)[];
  /** More literal segments win: `/users/me/x` prefers a literal `me` over `{userId}`. */
  readonly literals: number;
}

/** `GET /meetings/{meetingId}?type=live`, `DELETE /x/{id} (undo)` → method and path template. */
function parseDeclaredCall(declared: string): Template | undefined {
  const match = /^([A-Z]+)\s+(\/\S*)/.exec(declared.trim());
  if (!match) return undefined;
  const method = match[1]!;
  const path = match[2]!.split('?')[0]!;
  const segments = path
    .split('/')
    .slice(1)
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? undefined : segment));
  return { method, label: path, segments, literals: segments.filter((s) => s !== undefined).length };
}

export class V2RouteTemplates {
  private readonly byMethodAndLength = new Map<string, Template[]>();

  constructor(declaredCalls: Iterable<string>) {
    const seen = new Set<string>();
    for (const declared of declaredCalls) {
      const template = parseDeclaredCall(declared);
      if (!template || seen.has(`${template.method} ${template.label}`)) continue;
      seen.add(`${template.method} ${template.label}`);
      const key = `${template.method} ${template.segments.length}`;
      const list = this.byMethodAndLength.get(key) ?? [];
      list.push(template);
      list.sort((a, b) => b.literals - a.literals);
      this.byMethodAndLength.set(key, list);
    }
  }

  /** The declared template (`/users/{userId}`) a sent `method path` matches, if any. */
  templateOf(method: string, path: string): string | undefined {
    const segments = path.split('?')[0]!.split('/').slice(1);
    const candidates = this.byMethodAndLength.get(`${method} ${segments.length}`) ?? [];
    for (const template of candidates) {
      if (template.segments.every((literal, i) => literal === undefined || literal === segments[i])) return template.label;
    }
    return undefined;
  }
}
