import { z } from 'zod';
import type { SandboxApp, SandboxContext } from '../context.js';
import type { AccountSettings } from '../model/account.js';
import { readBody } from '../validation.js';
import { requireManagedAccount } from './access.js';
import { defaultAccountSettings } from './defaults.js';

/**
 * Account settings: GET renders the nested groups as stored, PATCH merges any subset of them.
 * The PATCH schema follows the defaults' shape (a boolean default takes booleans, a string default
 * strings, a number default integers), so a field added to defaults.ts is patchable at once;
 * FIELD_RULES holds the fields the v2 spec constrains further. The body is strict: an unknown group
 * or field (a group the sandbox does not hold, such as `zoom_rooms`, or the old reference's misspelt `schedule_meting`) is a
 * 400 naming it, never a silent no-op.
 */

const portsRange = z.string().refine(isPortsRange, {
  message: 'Must be comma-separated ports or port ranges (such as 8000-8100), each between 1 and 65535.',
});

/** Dotted `group.field` → its rule, where the spec says more than the type. */
const FIELD_RULES: Record<string, z.ZodType> = {
  'schedule_meeting.audio_type': z.enum(['both', 'telephony', 'voip', 'thirdParty']),
  'in_meeting.ports_range': portsRange,
  'in_meeting.dscp_audio': z.int().min(1, 'Must be at least 1.').max(63, 'Must be at most 63.'),
  'in_meeting.dscp_video': z.int().min(1, 'Must be at least 1.').max(63, 'Must be at most 63.'),
  'recording.auto_recording': z.enum(['local', 'cloud', 'none']),
  'recording.auto_delete_cmr_days': z.int().min(1, 'Must be at least 1.').max(60, 'Must be at most 60.'),
  'telephony.audio_conference_info': z.string().max(2048, 'Must be at most 2048 characters.'),
  // v2 gives only the default (100); v1's account calls say "max of 100", and v1 clients reach us through them.
  'feature.meeting_capacity': z.int().min(1, 'Must be at least 1.').max(100, 'Must be at most 100.'),
};

function ruleFor(group: string, field: string, example: unknown): z.ZodType {
  const rule = FIELD_RULES[`${group}.${field}`];
  if (rule) return rule;
  if (typeof example === 'boolean') return z.boolean();
  if (typeof example === 'number') return z.int();
  return z.string();
}

export const accountSettingsPatchSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(defaultAccountSettings()).map(([group, fields]) => [
      group,
      z
        .strictObject(Object.fromEntries(Object.entries(fields).map(([field, example]) => [field, ruleFor(group, field, example)])))
        .partial()
        .optional(),
    ]),
  ),
);

/** Each entry is a port (`8000`) or a range (`8000-8100`), every port 1 to 65535; empty clears the setting. */
function isPortsRange(value: string): boolean {
  if (value.trim() === '') return true;
  return value.split(',').every((entry) => {
    const match = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(entry);
    if (!match) return false;
    const low = Number(match[1]);
    const high = match[2] === undefined ? low : Number(match[2]);
    return low >= 1 && high <= 65535 && low <= high;
  });
}

function mergeSettings(settings: AccountSettings, patch: Record<string, Record<string, unknown> | undefined>): void {
  for (const [group, fields] of Object.entries(patch)) {
    if (fields) Object.assign((settings[group] ??= {}), fields);
  }
}

export function registerAccountSettingsRoutes(app: SandboxApp, { state }: SandboxContext): void {
  app.get('/accounts/:accountId/settings', (c) => {
    const account = requireManagedAccount(state, c.get('account'), c.req.param('accountId'));
    return c.json(structuredClone(account.settings));
  });

  app.patch('/accounts/:accountId/settings', async (c) => {
    const account = requireManagedAccount(state, c.get('account'), c.req.param('accountId'));
    const patch = await readBody(c, accountSettingsPatchSchema, { allowEmpty: true });
    mergeSettings(account.settings, patch);
    return c.body(null, 204);
  });
}
