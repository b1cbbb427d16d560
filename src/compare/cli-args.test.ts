import { describe, expect, it } from 'vitest';
import { parseCommandLine, replaySecret } from './cli-args.js';

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

describe('replaySecret', () => {
  const files: Record<string, string> = { '/s': 'the-secret\nignored\n', '/empty': '\n' };
  const read = (file: string) => {
    if (files[file] === undefined) throw Object.assign(new Error('no'), { code: 'ENOENT' });
    return files[file];
  };

  it('reads the first line of --secret-file, before V1_API_SECRET', () => {
    expect(replaySecret({ 'secret-file': '/s' }, { V1_API_SECRET: 'from-env' }, read)).toEqual({ secret: 'the-secret' });
    expect(replaySecret({}, { V1_API_SECRET: 'from-env' }, read)).toEqual({ secret: 'from-env' });
    expect(replaySecret({}, {}, read)).toEqual({ secret: undefined });
  });

  it('takes --secret with a warning that names the safer ways', () => {
    expect(replaySecret({ secret: 's' }, {}, read)).toEqual({
      secret: 's',
      warning: expect.stringMatching(/V1_API_SECRET or --secret-file/),
    });
  });

  it('refuses an unreadable or empty file, and both ways at once', () => {
    expect(replaySecret({ 'secret-file': '/missing' }, {}, read)).toEqual({ problem: '--secret-file /missing cannot be read (ENOENT)' });
    expect(replaySecret({ 'secret-file': '/empty' }, {}, read)).toEqual({ problem: '--secret-file /empty: its first line is empty' });
    expect(replaySecret({ secret: 's', 'secret-file': '/s' }, {}, read)).toEqual({ problem: 'give --secret-file or --secret, not both' });
  });
});
