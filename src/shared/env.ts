import { z } from 'zod';

/**
 * How v1gate reads environment variables, one way for every setting: a switch is on/off (also
 * true/false, 1/0, yes/no, any letter case), a count is a whole number in a range. Each part's
 * config schema builds on these, so two settings never disagree on what "on" means.
 */
export const onOff = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'], { error: 'must be on or off' }))
  .transform((v) => v === 'on' || v === 'true' || v === '1' || v === 'yes');

/** A whole number within [min, max], with a message that says which bound was missed. */
export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
