import pino, { type Level, type Logger } from 'pino';

/**
 * A line whose fields are already JSON text (src/ops/line-json.ts), written through a pino
 * logger's own destination in pino's own frame: its level (`{"level":30`), its time, its bindings
 * (`service`, `pid`, a worker's number, a child's fields), the fields, `"msg"` and the line's end,
 * each taken from the logger itself, so the line reads as if pino had written it. pino has no way
 * to take fields already serialised: whatever its `formatters.log` returns, it stringifies again.
 */
export type FramedWrite = (level: Level, fieldsJson: string, msg: string) => void;

/** pino's state, under its public symbols (`pino.symbols`; its types leave out `msgPrefixSym`). */
const SYMBOLS = pino.symbols as unknown as Record<string, symbol>;
const stateOf =
  (logger: Logger) =>
  <T>(name: string): T =>
    (logger as unknown as Record<symbol, T>)[SYMBOLS[name]!]!;

interface Destination {
  write(line: string): unknown;
}

/**
 * How to write a line through `logger` in its frame, or undefined when the logger does more to a
 * line than frame it (a mixin, hooks, a nested key, a message prefix, pino's own redaction, a
 * serializer but pino's own of `err`, a multistream reading each line's level): then only pino
 * itself writes the line as it would. A line written this way holds no `err`: pino's serializer
 * writes an error.
 */
export function framedWriter(logger: Logger): FramedWrite | undefined {
  const state = stateOf(logger);
  const hooks = state<{ logMethod?: unknown; streamWrite?: unknown }>('hooksSym');
  const stream = state<Destination & Record<symbol, unknown>>('streamSym');
  const plain =
    state<string>('messageKeySym') === 'msg' &&
    !state<string | undefined>('msgPrefixSym') &&
    !state<unknown>('mixinSym') &&
    !hooks.logMethod &&
    !hooks.streamWrite &&
    !state<string | undefined>('nestedKeySym') &&
    Reflect.ownKeys(state<object>('stringifiersSym')).length === 0 &&
    Object.keys(state<object>('serializersSym')).every((field) => field === 'err') &&
    stream[SYMBOLS.needsMetadataGsym!] !== true;
  if (!plain) return undefined;
  const time = state<(this: Logger) => string>('timeSym');
  const end = state<string>('endSym');
  // The line's end after its fields, by message: the writers of call lines have two.
  const ends = new Map<string, string>();
  return (level, fieldsJson, msg) => {
    if (!logger.isLevelEnabled(level)) return;
    let msgEnd = ends.get(msg);
    if (msgEnd === undefined) {
      msgEnd = `,"msg":${JSON.stringify(msg)}${end}`;
      if (ends.size < MAX_ENDS) ends.set(msg, msgEnd);
    }
    const levelJson = state<Record<number, string>>('lsCacheSym')[logger.levels.values[level]!]!;
    // The bindings are read each time: `setBindings` changes them.
    const bindings = state<string>('chindingsSym');
    stream.write(levelJson + time.call(logger) + bindings + fieldsJson + msgEnd);
  };
}

/** The messages whose line ends a writer keeps. */
const MAX_ENDS = 16;
