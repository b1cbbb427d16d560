/**
 * The one place v1gate makes code from text: a function written from a table (an answer shape's
 * fields, a mapping table's rows) once, then called on every answer, the way a schema compiler
 * builds a serialiser from a schema. Names from the tables enter the text only as JSON string
 * literals (`literal`); values only through the arguments handed in (`args`), never as text.
 *
 * The code is named `v1gate-compiled:///src/v1/<name>.js` (a `sourceURL`): a CPU or heap profile
 * charges it to this layer (bench/profile-areas.ts reads the path) rather than to "native", and a
 * stack trace through it says which table it was made from.
 *
 * Where code cannot be made from text (Node run with --disallow-code-generation-from-strings) it
 * answers undefined, and the caller keeps the generic walk the compiled code stands for.
 */
export function compiledFrom<F>(name: string, params: Readonly<Record<string, unknown>>, body: string): F | undefined {
  const names = Object.keys(params);
  const source = `${body}\n//# sourceURL=v1gate-compiled:///src/v1/${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.js`;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code made from a table, as above
    const make = new Function(...names, source) as (...args: readonly unknown[]) => F;
    return make(...names.map((each) => params[each]));
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    return undefined;
  }
}

/** A name from a table as a JavaScript string literal (JSON's is one): the only way a name enters compiled code. */
export const literal = (name: string): string => JSON.stringify(name);
