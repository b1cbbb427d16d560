/**
 * The one place v1gate makes code from text: a function written from a table (an answer shape's
 * fields, a mapping table's rows) once, then called on every answer, the way a schema compiler
 * builds a serialiser from a schema. Names from the tables enter the text only as JSON string
 * literals (`literal`); values only through the arguments handed in (`args`), never as text.
 *
 * The code is named `v1gate-compiled:///src/<folder>/<name>.js` (a `sourceURL`; `v1` unless the
 * caller's folder is another): a CPU profile charges it to that layer (bench/profile-areas.ts reads the path) rather than to "native", and a
 * stack trace through it says which table it was made from.
 *
 * Where code cannot be made from text (Node run with --disallow-code-generation-from-strings) it
 * answers undefined, and the caller keeps the generic walk the compiled code stands for.
 */
export function compiledFrom<F>(name: string, params: Readonly<Record<string, unknown>>, body: string, folder = 'v1'): F | undefined {
  const names = Object.keys(params);
  const source = `${body}\n//# sourceURL=v1gate-compiled:///src/${folder}/${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.js`;
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

/**
 * The code of a function of `param` answering a plain object made by `statements`, which store its
 * fields as `this[<literal>] = ...`. They run in a constructor whose prototype is Object.prototype:
 * V8 counts a constructor's stores to `this` and, after its first few objects, makes each with room
 * for them all inside it, where an object literal (`{}`) given its fields one by one outgrows its
 * room again and again, a new backing store each time (a 24-field object: 216 bytes against 840).
 * The object is what `{}` would have been: the same prototype, keys, order and values.
 */
export function madeByConstructor(param: string, statements: string): string {
  return (
    `function Made(${param}) { ${statements} } Made.prototype = Object.prototype; ` +
    `return function make(${param}) { return new Made(${param}); };`
  );
}
