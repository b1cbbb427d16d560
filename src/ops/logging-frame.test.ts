import { Writable } from 'node:stream';
import pino, { type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { framedWriter } from './logging-frame.js';

/**
 * The framed line reads pino's state under its symbols: a pino release that renames or moves one
 * would make the line differ from pino's own, or fail. Held here to the installed pino: every
 * symbol it reads exists, a framed line is byte for byte the line pino writes of the same fields,
 * at every level and through a child's bindings, and a logger that does more than frame a line is
 * left to pino.
 */

function capture(options: LoggerOptions = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  // pino's SonicBoom is left out: a plain stream's write is synchronous, so each line is here at once.
  const logger = pino({ base: { service: 'v1gate', pid: 42 }, timestamp: () => ',"time":"2026-01-01T00:00:00.000Z"', ...options }, stream);
  return { logger, lines };
}

const READ_SYMBOLS = [
  'hooksSym',
  'streamSym',
  'messageKeySym',
  'mixinSym',
  'nestedKeySym',
  'stringifiersSym',
  'serializersSym',
  'needsMetadataGsym',
  'timeSym',
  'endSym',
  'lsCacheSym',
  'chindingsSym',
];

describe('framedWriter, against the installed pino', () => {
  it('reads only symbols pino still has', () => {
    const symbols = pino.symbols as unknown as Record<string, unknown>;
    for (const name of READ_SYMBOLS) expect(typeof symbols[name], name).toBe('symbol');
  });

  it("writes the line pino writes of the same fields, at every level and through a child's bindings", async () => {
    const fields = { reqId: 'r-1', path: '/user/get', ms: 1.5, nested: { a: [1, 'two'] }, text: 'quote " and \\ and é' };
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) {
      for (const child of [false, true]) {
        const theirs = capture({ level: 'trace' });
        const ours = capture({ level: 'trace' });
        const [pinoLogger, framedLogger] = child
          ? [theirs.logger.child({ worker: 2 }), ours.logger.child({ worker: 2 })]
          : [theirs.logger, ours.logger];
        pinoLogger[level](fields, 'a call');
        const write = framedWriter(framedLogger);
        expect(write, `${level}${child ? ' (child)' : ''}`).toBeDefined();
        write!(level, JSON.stringify(fields).slice(1, -1).replace(/^/, ','), 'a call');
        expect(ours.lines, `${level}${child ? ' (child)' : ''}`).toEqual(theirs.lines);
      }
    }
  });

  it('writes nothing below the logger level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    framedWriter(logger)!('info', ',"a":1', 'dropped');
    expect(lines).toEqual([]);
  });

  it('leaves to pino a logger that does more than frame a line', () => {
    const more: LoggerOptions[] = [
      { mixin: () => ({ extra: 1 }) },
      { hooks: { logMethod: (args, method) => method(...args) } },
      { nestedKey: 'payload' },
      { msgPrefix: '[v1gate] ' },
      { messageKey: 'message' },
      { redact: ['secret'] },
      { serializers: { req: (req: unknown) => req } },
    ];
    for (const options of more) expect(framedWriter(capture(options).logger), JSON.stringify(Object.keys(options))).toBeUndefined();
  });
});
