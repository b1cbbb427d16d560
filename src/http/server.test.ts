import { describe, expect, it } from 'vitest';
import { defaultMaxConnections } from './server.js';

const limits = (openFiles: string) => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            ${openFiles}                 1048576              files
`;

describe('defaultMaxConnections', () => {
  it('is 4,096 where files are plenty', () => {
    expect(defaultMaxConnections(limits('1048576'))).toBe(4_096);
  });

  it('leaves half the open-file limit to everything else where that is lower', () => {
    expect(defaultMaxConnections(limits('1024'))).toBe(512);
  });

  it('is never below 64, and 4,096 where the limit cannot be read', () => {
    expect(defaultMaxConnections(limits('50'))).toBe(64);
    expect(defaultMaxConnections(limits('unlimited'))).toBe(4_096);
    expect(defaultMaxConnections('')).toBe(4_096);
  });
});
