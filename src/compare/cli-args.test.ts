import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './cli-args.js';

const options = { secret: { type: 'string' }, key: { type: 'string' }, writes: { type: 'boolean' } } as const;

describe('parseCommandLine', () => {
  it('takes any word after an option that needs a value as its value, a leading dash included', () => {
    expect(parseCommandLine(['--secret', '-x', '--key', '--k', '--writes'], options).values).toEqual({
      secret: '-x',
      key: '--k',
      writes: true,
    });
    expect(parseCommandLine(['--secret=-x', 'file.jsonl'], options)).toMatchObject({
      values: { secret: '-x' },
      positionals: ['file.jsonl'],
    });
  });

  it('still refuses an unknown option and an option left without a value', () => {
    expect(() => parseCommandLine(['--secrt', 's'], options)).toThrow(/Unknown option '--secrt'/);
    expect(() => parseCommandLine(['--secret'], options)).toThrow(/argument missing/);
  });
});
