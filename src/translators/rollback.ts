import { V1Error, toV1Error } from '../v1-facade/errors.js';

/**
 * No half-done work: a v1 call that needs several v2 writes registers how to undo each write as
 * it succeeds; if a later step fails, the undos run newest first and the original error is
 * answered. If an undo fails too, the answer says exactly what was and was not done.
 */
export class Rollback {
  private readonly undos: { what: string; undo: () => Promise<unknown> }[] = [];

  /** After a write succeeded: how to take it back, and what it was (for the error message). */
  onFailure(what: string, undo: () => Promise<unknown>): void {
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
    for (const { what, undo } of this.undos.reverse()) {
      try {
        await undo();
      } catch {
        leftOver.push(what);
      }
    }
    if (leftOver.length === 0) return error;
    const failure = toV1Error(error);
    return new V1Error(
      failure.code,
      `${failure.message} The call was not completed, and undoing its earlier steps failed: ${leftOver.join('; ')} remains done.`,
    );
  }
}
