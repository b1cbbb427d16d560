import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { V2Answer } from './v2-answers/table.js';
import type { Query } from '../../upstream/client.js';
import type { PathValue, V2Method, V2Route, V2Target } from '../../v2-contract/v2-route.js';
import type { CompositeMapping, FieldTable } from '../../v1/field-map.js';
import { v1FieldNamer, type V1FieldNaming, type V1FieldOf } from '../../v1/field-naming.js';
import type { WriteBody } from './write-bodies.js';
import type { ListKeep } from './list-keep.js';

/**
 * The contract of a translator: one small definition per v1 endpoint. The facade finds it by
 * path, parses the v1 params with `params`, and calls `handle`, which makes the v2 calls through
 * `ctx.v2` and returns the v1 answer object. Throwing a V1Error (or letting a V2Error through)
 * answers the v1 error envelope.
 */

/**
 * The v2 calls a translator may make, bound to the caller's credentials, over the routes `Routes`:
 * each method takes a target (`V2.users.get.at(id)`, src/v2-contract/v2-routes.ts) of those routes of
 * its own HTTP method, and nothing else compiles. An endpoint's `ctx.v2` is typed over the routes
 * it declares (`defineEndpoint`); a helper shared by endpoints takes a `V2Api` over the routes it
 * calls, and an endpoint may pass it its own only if it declares them all (the methods are
 * properties, not method shorthand, so their parameters are checked contravariantly: a client over
 * fewer routes is not a client over more). `V2Api` with the default is any route.
 *
 * A GET or POST answers its route's one schema (kit/v2-answers/table.ts): the answer is checked
 * against it before the translator sees it, and one that does not fit is an upstream error
 * (kit/answer-shape.ts); the call is typed by the schema's output. No call names a schema.
 */
export interface V2Api<in Routes extends V2Route = V2Route> {
  get: <Name extends RouteName<Routes, 'GET'>>(target: V2Target<'GET', Name>, query?: Query) => Promise<V2Answer<Name>>;
  post: <Name extends RouteName<Routes, 'POST'>>(target: V2Target<'POST', Name>, body: unknown, query?: Query) => Promise<V2Answer<Name>>;
  patch: (target: TargetOf<Routes, 'PATCH'>, body: unknown) => Promise<void>;
  put: (target: TargetOf<Routes, 'PUT'>, body?: unknown, query?: Query) => Promise<void>;
  delete: (target: TargetOf<Routes, 'DELETE'>, query?: Query) => Promise<void>;
  /** multipart/form-data POST (picture upload). */
  upload: <Name extends RouteName<Routes, 'POST'>>(target: V2Target<'POST', Name>, form: FormData) => Promise<V2Answer<Name>>;
}

/** The names of the routes of `Routes` of one method (every name, of the wide `V2Route`). */
type RouteName<Routes extends V2Route, Method extends V2Method> = Routes extends { readonly method: infer Of; readonly name: infer Name }
  ? Method extends Of
    ? Name & string
    : never
  : never;

/** A target of one of `Routes`, of one method: what a `V2Api<Routes>` sends to. */
export type TargetOf<Routes extends V2Route, Method extends V2Method> = V2Target<Method, RouteName<Routes, Method>>;

/** The routes of `Routes` of one method. */
export type RoutesOf<Routes extends V2Route, Method extends V2Method> = V2Route<Method, PathValue[], RouteName<Routes, Method>>;

/**
 * What the gateway remembers for the caller's key between v1 calls (src/v1-steps/key-memo.ts).
 * Values are shared by every caller: return immutable ones (strings, numbers, arrays never changed).
 */
export interface CallMemo {
  /**
   * A read that only feeds a computed v1 field: answered from a short-lived cache (AUX_CACHE_TTL_MS,
   * ≤ 1 s by default), dropped when the key writes through v1gate. docs/decisions.md says which.
   */
  aux<T>(name: string, read: () => Promise<T>): Promise<T>;
  /** A fact that never changes for the key and secret: read once, kept (bounded), forgotten on a 401. */
  fact<T>(name: string, read: () => Promise<T>): Promise<T>;
  /** The next-page token v2 gave lately for the page of list `chain` that starts at item `offset` (kit/token-walk.ts). */
  pageToken(chain: string, offset: number): string | undefined;
  /** Keep it, briefly and bounded (src/v1-steps/key-memo.ts). */
  keepPageToken(chain: string, offset: number, token: string): void;
}

/**
 * What a translator's `handle` is given for one v1 call: `v2` over the routes the endpoint declares
 * in `v2Calls`, `undoV2` over those of `v2Undo`. A helper shared by endpoints takes a context over
 * the routes it calls (`TranslatorContext<typeof V2.users.get>`; the routes of its undos, when it
 * makes any, as the second): an endpoint can pass it its own only if it declares them all. With
 * the defaults, any route and no undo.
 */
export interface TranslatorContext<in Routes extends V2Route = V2Route, in Undo extends V2Route = never> {
  readonly v2: V2Api<Routes>;
  readonly memo: CallMemo;
  /**
   * The v2 API for compensating calls (a rollback's undos): they jump the outbound queue, wait on
   * their own budget rather than the v1 call's spent deadline, and still run when the client left.
   */
  readonly undoV2: V2Api<Undo>;
  /** The time of the action, as v1 printed it: `2012-11-25T12:00:00Z`. */
  nowIso(): string;
  /**
   * Before a fan-out of `calls` v2 calls to `route`: throws (the v1 rate-limit error) when they
   * cannot all be admitted within this v1 call's outbound wait, so nothing is sent in vain.
   */
  requireFanOut(route: RoutesOf<Routes, 'GET'>, calls: number): void;
  /**
   * Whether this call's v2 token may call `route`: false only when its token answer listed scopes
   * and none of them opens the route (kit/scopes.ts). What an endpoint does without (`v2Optional`)
   * is asked here, so a call the app cannot make is never sent.
   */
  canCall(route: Routes): boolean;
  /** The gateway's logger, with this call's request id (`reqId`) on every line. */
  readonly log: Logger;
  /**
   * The link a v1 client downloads a v2 recording file through, in place of its `download_url`: v2
   * serves that only with a bearer token, which a v1 client does not have (src/downloads/). The
   * link names the file, so it is the same in every answer, as v1's was.
   */
  downloadUrl(file: RecordingFileRef): string;
}

/** A v2 recording file, as a download link names it. */
export interface RecordingFileRef {
  /** The meeting instance uuid whose recording holds it. */
  meetingUuid: string;
  /** Its id (`recording_files[].id`). */
  fileId: string;
  /** Its v2 `download_url` (answered as it is where no links are made). */
  v2Url: string;
}

/** The link maker of one v1 call: its key, and the call (whose scheme and host links are written with by default). */
export type DownloadLinkMaker = (apiKey: string, call: Context) => (file: RecordingFileRef) => string;

export type V1Answer = Record<string, unknown>;

/**
 * One endpoint, over the routes it calls (`Routes`) and those its undos call (`Undo`): what `handle`
 * may call is what `v2Calls` and `v2Undo` say, checked by the compiler. The registry holds them all
 * as `EndpointDefinition` of any routes.
 */
export interface EndpointDefinition<S extends z.ZodType = z.ZodType, Routes extends V2Route = V2Route, Undo extends V2Route = V2Route> {
  /** The v1 path, lower case, without `/v1`: `/user/get`. */
  path: string;
  /** More paths served by the same definition (legacy spellings). */
  aliases?: readonly string[];
  /** The v1 params: a zod object built with `v1Params` and the `v1` types. */
  params: S;
  /**
   * The v2 routes it calls (src/v2-contract/v2-routes.ts): docs/coverage.md lists them, shadow mode
   * replays only an endpoint whose routes all read, and a test holds every endpoint to them.
   */
  v2Calls: readonly Routes[];
  /** The routes its undos call (a rollback's deletes and restores, through `ctx.undoV2`), if it has any. */
  v2Undo?: readonly Undo[];
  /**
   * Routes of `v2Calls` it does without when its v2 app's scopes do not open them (it asks
   * `ctx.canCall` first), and what its answer then lacks: the scope check made before the first v2
   * call does not require their scopes, and docs/scopes.md lists them apart.
   */
  v2Optional?: { readonly routes: readonly Routes[]; readonly without: string };
  /**
   * Which input rows go to which write, for an endpoint whose call makes several (kit/write-bodies.ts):
   * its translator builds each body from these, and the way-out recipe reads them (src/recipe/plan.ts).
   */
  v2Writes?: readonly WriteBody<NoInfer<Routes>>[];
  /** The mapping tables it uses (for naming v1 fields in v2 field errors, and for the docs). */
  tables?: readonly FieldTable[];
  /** The composite mappings it uses (several v1 fields ↔ one v2 field), for the same. */
  composites?: readonly CompositeMapping[];
  /** Which items of its v2 list a list endpoint keeps, where v2 cannot filter as v1 did: the translator and the recipe read this one rule. */
  listKeep?: ListKeep;
  /** The v1 field a v2 field error's path names: the facade's only way to name one (src/v1/field-naming.ts). */
  v1FieldOf: V1FieldOf;
  /**
   * The translator file that defines it (`src/translators/users/get.ts`), found when it is defined:
   * what a compare report names as computing a field no mapping row gives (src/compare/why.ts).
   */
  source?: string | undefined;
  handle(params: z.output<S>, ctx: TranslatorContext<Routes, Undo>): Promise<V1Answer>;
}

/** What a translator writes: the definition, with what its tables do not say about naming v1 fields in v2 errors. */
export interface EndpointSpec<
  S extends z.ZodType = z.ZodType,
  Routes extends V2Route = V2Route,
  Undo extends V2Route = V2Route,
> extends Omit<EndpointDefinition<S, Routes, Undo>, 'v1FieldOf' | 'source'> {
  /**
   * Tables whose v2 paths are relative to another object than the body sent (`moved`), and v2
   * paths no table names (`overrides`, `members` → `member_ids`).
   */
  v2Naming?: Pick<V1FieldNaming, 'moved' | 'overrides'>;
}

/**
 * Routes of the catalogue, each of its own type: a list typed only `V2Route[]` would give `handle`
 * a client of every route, so it is refused where it is declared.
 */
type OwnRoutes<Routes extends V2Route> = string extends Routes['name']
  ? { v2Calls: 'routes of V2, each typed as its own'; v2Undo?: never }
  : unknown;

/**
 * The definition, with its `v1FieldOf` built once from its tables, composites and `v2Naming` (and
 * `params` and the declared routes inferred for `handle`, so its `ctx.v2` takes only routes of
 * `v2Calls` and its `ctx.undoV2` only those of `v2Undo`), and each route declared once (a
 * definition composes its list from helpers' lists, which may name one route twice: the host check
 * and the status read both read the host). Types only: it does at run time what it did untyped.
 */
export function defineEndpoint<S extends z.ZodType, const Routes extends V2Route, const Undo extends V2Route = never>(
  spec: EndpointSpec<S, Routes, Undo> & OwnRoutes<Routes | Undo>,
): EndpointDefinition<S, Routes, Undo> {
  const { v2Naming, ...definition } = spec;
  return {
    ...definition,
    v2Calls: [...new Set(spec.v2Calls)],
    ...(spec.v2Undo ? { v2Undo: [...new Set(spec.v2Undo)] } : {}),
    v1FieldOf: v1FieldNamer({ tables: spec.tables, composites: spec.composites, ...v2Naming }),
    source: definingFile(new Error().stack),
  };
}

/** A translator's place in a stack: run from source (`.ts`) or built (`dist/….js`), named as in the repository. */
const TRANSLATOR_FRAME = /(src\/translators\/(?!kit\/define\.)[\w/.-]+?)\.[jt]s:\d+/;

/** The translator file whose code called defineEndpoint: the first frame of the stack below this module. */
function definingFile(stack: string | undefined): string | undefined {
  const match = TRANSLATOR_FRAME.exec(stack?.replaceAll('\\', '/') ?? '');
  return match ? `${match[1]}.ts` : undefined;
}
