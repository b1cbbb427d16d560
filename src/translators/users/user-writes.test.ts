import { describe, expect, it } from 'vitest';
import { writeBody } from '../kit/write-bodies.js';
import { createWrites, USER_SETTINGS_WRITE } from './user-writes.js';

/**
 * A declared write builds its body from its own rows only: a create's POST /users sends the action
 * and, under `user_info`, the email, names and type (through the type's codec); its settings write
 * sends the v1 defaults of the options left out, its composites beside the rows of the same object;
 * an update's settings write sends only what the call gives.
 */
describe('writeBody', () => {
  const writes = createWrites('create');

  it("sends a write's constants and, under its path, only its rows", () => {
    const body = writeBody(writes.info, { email: 'a@b.c', type: 3, first_name: 'A', dept: 'Sales', disable_chat: true });
    expect(body).toEqual({ action: 'create', user_info: { email: 'a@b.c', type: 2, first_name: 'A' } });
    expect(writeBody(writes.user, { email: 'a@b.c', type: 3, first_name: 'A', dept: 'Sales' })).toEqual({ dept: 'Sales' });
  });

  it("sends a create's v1 defaults with the composites beside the rows, and an update's given fields only", () => {
    const created = writeBody(writes.settings, { enable_cmr: true });
    expect(created).toMatchObject({
      in_meeting: { chat: true, annotation: true, entry_exit_chime: 'none' },
      recording: { cloud_recording: true, local_recording: true, auto_recording: 'none' },
    });
    expect(writeBody(USER_SETTINGS_WRITE, { enable_cmr: true })).toEqual({ recording: { cloud_recording: true } });
    expect(writeBody(USER_SETTINGS_WRITE, { enable_auto_recording: true, enable_cloud_auto_recording: false, enable_cmr: true })).toEqual({
      recording: { cloud_recording: true, auto_recording: 'local' },
    });
  });
});
