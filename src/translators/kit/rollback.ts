import { CallWithdrawn, UpstreamUnavailable } from '../../upstream/errors.js';
import { toV1Error } from './failures.js';
import { V1Error } from '../../v1/errors.js';
import type { V2Route } from '../../v2-contract/v2-route.js';
import type { TranslatorContext, V2Api } from './define.js';

/**
 * No half-done work: a v1 call that needs several v2 writes registers how to undo each write as
 * it succeeds; if a later step fails, the undos run newest first and the original error is
 * answered. If an undo fails too, the answer says exactly what was and was not done.
 *
 * Typed over the routes the undos may call (the endpoint's `v2Undo`, read from its `ctx.undoV2`):
 * an undo of another route does not compile, and a helper that registers undos takes a
 * `Rollback<its routes>`, which an endpoint can hand it only if it declares them (`in`: a rollback
 * over more routes serves where one over fewer is asked for).
 */
export class Rollback<in Undo extends V2Route = never> {
  private readonly undos: { what: string; undo: (v2: V2Api<Undo>) => Promise<unknown> }[] = [];

  /** Undos go through `ctx.undoV2`: the front of the outbound queue, on a budget of their own. */
  constructor(private readonly ctx: Pick<TranslatorContext<never, Undo>, 'undoV2'>) {}

  /** After a write succeeded: how to take it back with the v2 API it is given, and what it was (for the error message). */
  onFailure(what: string, undo: (v2: V2Api<Undo>) => Promise<unknown>): void {
    this.undos.push({ what, undo });
  }

  /**
   * Run `work`; on failure, undo what was done and rethrow: the original error when every undo
   * succeeded (so the facade can still name the v1 field of a v2 field error), else a v1 error
   * saying what remains done.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw await this.undoAfter(error);
    }
  }

  private async undoAfter(error: unknown): Promise<unknown> {
    const leftOver: string[] = [];
    // An undo whose own answer was lost (a reset, a timeout, a 5xx) may have worked: say so, never "remains done".
    const mayBeLeft: string[] = [];
    for (const { what, undo } of this.undos.reverse()) {
      try {
        await undo(this.ctx.undoV2);
      } catch (undoError) {
        (undoError instanceof UpstreamUnavailable && undoError.mayHaveApplied ? mayBeLeft : leftOver).push(what);
      }
    }
    const failure = toV1Error(error);
    if (leftOver.length === 0 && mayBeLeft.length === 0) {
      // "may or may not have been applied" speaks of the failed step; say that the rest is undone.
      const undone = (error instanceof UpstreamUnavailable || error instanceof CallWithdrawn) && this.undos.length > 0;
      return undone ? new V1Error(failure.code, `${failure.message} Its earlier steps were undone.`, {}, error) : error;
    }
    const remains = leftOver.length ? ` ${leftOver.join('; ')} remains done.` : '';
    const unsure = mayBeLeft.length ? ` Undoing ${mayBeLeft.join('; ')} may or may not have succeeded: check before retrying.` : '';
    return new V1Error(
      failure.code,
      `${failure.message} The call was not completed, and undoing its earlier steps failed:${remains}${unsure}`,
      {},
      // A bug stays one: the call's line logs it, with its trace.
      error,
    );
  }
}
