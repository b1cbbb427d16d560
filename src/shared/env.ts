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

/** A number as written (`0.5`, ` 12 `), for settings whose range the part's own schema checks. */
export const numberText = z.string().trim().pipe(z.coerce.number());

/** Environment variables as the process has them (unset: undefined). */
export type Env = Readonly<Record<string, string | undefined>>;

/** One problem of a configuration: the variable it is about, and what is wrong with it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * Every problem of a configuration, found together and reported once, each naming its variable.
 * The value is repeated only for variables that cannot hold a secret (see `EnvSection.secret`).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
  }
}

/**
 * The settings one part of v1gate reads: its variables (each a schema of the text; unset or blank
 * is undefined, so `.default()` and `.optional()` apply), and what the part makes of them.
 */
export interface EnvSection<S extends z.ZodRawShape, T> {
  /** What the variables are about, for `--help`. */
  title: string;
  /** Each variable's schema, with `.describe()` saying what it sets (for `--help`). */
  variables: S;
  /** Old names still read, each with the name that replaced it (the new name wins when both are set). */
  aliases?: Readonly<Record<string, keyof S & string>>;
  /** Variables whose value an error never repeats: secrets, and URLs (one may carry a password). */
  secret?: readonly (keyof S & string)[];
  /** The part's settings; what is wrong across variables goes to `problem` (undefined may be returned then). */
  build(values: z.output<z.ZodObject<S>>, problem: (variable: keyof S & string, message: string) => void): T | undefined;
}

/** Declares a section with its types inferred. */
export function envSection<S extends z.ZodRawShape, T>(section: EnvSection<S, T>): EnvSection<S, T> {
  return section;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section, whatever its variables
export type AnySection = EnvSection<any, unknown>;
/** The settings of each section, by the section's name. */
export type SettingsOf<X extends Record<string, AnySection>> = { [K in keyof X]: NonNullable<ReturnType<X[K]['build']>> };

/** Every variable the sections read, under its current name and its old ones. */
export function variablesOf(sections: Readonly<Record<string, AnySection>>): string[] {
  return Object.values(sections).flatMap((s) => [...Object.keys(s.variables as z.ZodRawShape), ...Object.keys(s.aliases ?? {})]);
}

/**
 * What one variable of a section sets, as its schema describes it, with the old names still read
 * for it: the one text `--help` prints and docs/configuration.md is generated from.
 */
export function settingDescription(section: AnySection, name: string): string {
  const schema = (section.variables as Record<string, { description?: string }>)[name];
  const oldNames = Object.entries(section.aliases ?? {})
    .filter(([, current]) => current === name)
    .map(([old]) => old);
  const description = schema?.description ?? '';
  if (oldNames.length === 0) return description;
  return `${description}; old name${oldNames.length > 1 ? 's' : ''} ${oldNames.join(', ')} still read (this one wins when both are set)`;
}

/**
 * Read every section from `env`; throws one ConfigError listing every problem of every section.
 * A variable read by two sections (REDIS_URL) with the same complaint is named once.
 */
export function readEnv<X extends Record<string, AnySection>>(sections: X, env: Env): SettingsOf<X> {
  const problems = new Map<string, ConfigProblem>();
  const add = (variable: string, message: string) => problems.set(`${variable}\n${message}`, { variable, message });
  const settings: Record<string, unknown> = {};
  for (const [name, section] of Object.entries(sections)) settings[name] = readSection(section, env, add);
  if (problems.size > 0) throw new ConfigError([...problems.values()]);
  return settings as SettingsOf<X>;
}

function readSection(section: AnySection, env: Env, add: (variable: string, message: string) => void): unknown {
  const variables = section.variables as z.ZodRawShape;
  const values: Record<string, string> = {};
  const setAs: Record<string, string> = {};
  for (const name of Object.keys(variables)) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') values[name] = value;
  }
  for (const [old, name] of Object.entries(section.aliases ?? {})) {
    const value = env[old];
    if (value === undefined || value.trim() === '' || values[name] !== undefined) continue;
    values[name] = value;
    setAs[name] = old; // a problem names the variable the operator set
  }
  const named = (variable: string) => setAs[variable] ?? variable;
  const parsed = z.object(variables).safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0]);
      const shown = (section.secret ?? []).includes(variable) ? '' : quoted(values[variable]);
      add(named(variable), `${issue.message}${shown}`);
    }
    return undefined;
  }
  let reported = false;
  const settings = section.build(parsed.data, (variable, message) => {
    reported = true;
    add(named(variable), message);
  });
  if (settings === undefined && !reported) throw new Error(`The settings of "${section.title}" are missing, and no problem was named.`);
  return settings;
}

/** ` (got "…")`, at most 40 characters of it. */
function quoted(value: string | undefined): string {
  if (value === undefined) return '';
  return ` (got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
}
