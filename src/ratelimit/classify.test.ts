import { describe, expect, it } from 'vitest';
import { classifyV1Path, normalizePath } from './classify.js';

describe('classifyV1Path', () => {
  it.each([
    ['/v1/user/create', 'general'],
    ['/v1/meeting/get', 'general'],
    ['/v1/user/list', 'list-billing-plan'],
    ['/v1/group/member/list', 'list-billing-plan'],
    ['/v1/im/group/member/list', 'list-billing-plan'],
    ['/v1/webinar/list/registration', 'list-billing-plan'],
    ['/v1/ma/account/billing/update', 'list-billing-plan'],
    ['/v1/ma/account/plan/subscribe', 'list-billing-plan'],
    ['/v1/webinar/poll', 'list-billing-plan'],
    ['/v1/webinar/polls', 'list-billing-plan'],
    ['/v1/webinar/questions', 'list-billing-plan'],
    ['/v1/chat/get', 'list-billing-plan'],
    ['/v1/metrics/qos', 'dashboard'],
    ['/v1/metrics/meetingdetail', 'dashboard'],
    ['/v1/chat/list', 'daily-quota'],
    ['/v1/report/getaccountreport', 'daily-quota'],
    ['/v1/metrics/meetings', 'metrics-minute'],
    ['/v1/metrics/webinars', 'metrics-minute'],
    ['/v1/report/getuserreport', 'report-user'],
  ])('%s is %s', (path, name) => {
    expect(classifyV1Path(path).name).toBe(name);
  });

  it('ignores case, a trailing slash and the query string', () => {
    expect(classifyV1Path('/V1/User/List/').name).toBe('list-billing-plan');
    expect(classifyV1Path('/v1/webinar/List/Registration?x=1').name).toBe('list-billing-plan');
    expect(classifyV1Path('/v1/user/updatePassword').name).toBe('general');
  });

  it('does not take a path that merely contains "list" for a list endpoint', () => {
    expect(classifyV1Path('/v1/user/listing').name).toBe('general');
    expect(classifyV1Path('/v1/webinar/panelists').name).toBe('general');
  });

  it('reads a path without the /v1 prefix as relative to it', () => {
    expect(classifyV1Path('/user/list').name).toBe('list-billing-plan');
    // A list's buckets are its own endpoint's; a general call's, its class's.
    expect(classifyV1Path('/V1/User/List/').bucket).toBe('list-billing-plan:/v1/user/list');
    expect(classifyV1Path('/v1/meeting/list').bucket).toBe('list-billing-plan:/v1/meeting/list');
    expect(classifyV1Path('/v1/user/get').bucket).toBe('general');
  });

  it('gives each class its limits from the table', () => {
    expect(classifyV1Path('/v1/user/get').limits).toEqual([{ count: 10, per: 'second' }]);
    expect(classifyV1Path('/v1/metrics/meetings').limits).toEqual([
      { count: 1, per: 'second' },
      { count: 1, per: 'minute' },
      { count: 2000, per: 'day' },
    ]);
  });
});

describe('normalizePath', () => {
  it('drops query, fragment, trailing and doubled slashes, and lowers the case', () => {
    expect(normalizePath('/V1//User/List/?a=1#x')).toBe('/v1/user/list');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('v1/user')).toBe('/v1/user');
  });
});
