import type { RecordedCall } from '../compare/calls.js';
import { mappingHomes } from '../compare/mapping-files.js';
import type { EndpointDefinition } from '../translators/kit/define.js';
import { canonicalPath } from '../translators/kit/registry.js';
import { PLAN_LIMITS, type RateLimitPlan } from '../v2-contract/rate-limit-plans.js';
import type { RateLimitCategory, V2Scopes } from '../v2-contract/v2-route.js';
import { declaredRecipe, type DeclaredRecipe } from './declared.js';
import { planEndpoint } from './plan.js';
import type { EndpointPlan } from './plan-schema.js';
import { workedExample, type WorkedExample } from './examples.js';
import { scopesToRequest, type ScopesToRequest } from './scopes.js';
import { usageByIntegration, type CategoryUsage, type EndpointUsage } from './recorded.js';

/**
 * The way out of v1: for each integration in a record, its own migration plan to v2. Each endpoint
 * it called, with how it called it (the record), what v1gate declares that endpoint becomes on v2
 * (the definitions and tables), and a worked example; and its v2 calls per rate-limit category at
 * their busiest against the plan's limits. `recipe.json` is this object (docs/recipe.md).
 */

export const RECIPE_VERSION = 1;

export interface EndpointRecipe extends Omit<EndpointUsage, 'example'> {
  /** What v1gate declares of the endpoint; undefined for a path it does not serve. */
  declared: DeclaredRecipe | undefined;
  example: WorkedExample | undefined;
  /** The steps as a program runs them: conditions, templates, the reverse map, and what it cannot express (plan.ts). */
  plan: EndpointPlan | undefined;
}

export interface CategoryHeadroom extends CategoryUsage {
  /** The plan's budget for one window (calls per second; per minute for Resource-intensive). */
  limit: number;
  /** The busiest window's share of the budget: above 1, the integration's peak would be refused. */
  load: number;
}

export interface IntegrationRecipe {
  integration: string;
  calls: number;
  first: string;
  last: string;
  endpoints: EndpointRecipe[];
  categories: CategoryHeadroom[];
  /** The v1 endpoints it called that v1gate does not serve: nothing to translate from. */
  unserved: string[];
  /** The scopes its new app needs to make every call its endpoints may make. */
  scopes: ScopesToRequest;
}

export interface Recipe {
  version: number;
  generated_at: string;
  plan: RateLimitPlan;
  integrations: IntegrationRecipe[];
}

function headroom(usage: CategoryUsage, plan: RateLimitPlan): CategoryHeadroom {
  const limit = PLAN_LIMITS[plan].categories[usage.category].count;
  return { ...usage, limit, load: Math.round((usage.peak / limit) * 100) / 100 };
}

export interface RecipeOptions {
  plan: RateLimitPlan;
  /** When it was made (given, so that a test's recipe is the same every run). */
  now: Date;
}

export function makeRecipe(calls: readonly RecordedCall[], endpoints: readonly EndpointDefinition[], options: RecipeOptions): Recipe {
  const homes = mappingHomes();
  const byPath = new Map<string, EndpointDefinition>();
  for (const endpoint of endpoints)
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) byPath.set(canonicalPath(path), endpoint);
  const declared = new Map<EndpointDefinition, DeclaredRecipe>();
  const declaredOf = (path: string) => {
    const endpoint = byPath.get(canonicalPath(path));
    if (!endpoint) return undefined;
    if (!declared.has(endpoint)) declared.set(endpoint, declaredRecipe(endpoint, homes));
    return declared.get(endpoint);
  };
  const integrations = usageByIntegration(calls).map((usage): IntegrationRecipe => {
    const own = calls.filter((call) => (call.integration ?? 'unknown') === usage.integration);
    const endpointRecipes = usage.endpoints.map(({ example, ...rest }): EndpointRecipe => {
      const recipe = declaredOf(rest.path);
      const endpoint = byPath.get(canonicalPath(rest.path));
      const plan =
        endpoint &&
        planEndpoint(
          endpoint,
          own.filter((call) => call.path === rest.path),
        );
      return { ...rest, declared: recipe, example: recipe ? workedExample(example, recipe) : undefined, plan };
    });
    const planned = { endpoints: endpointRecipes };
    return {
      integration: usage.integration,
      calls: usage.calls,
      first: usage.first,
      last: usage.last,
      endpoints: endpointRecipes,
      categories: usage.categories.map((category) => headroom(category, options.plan)),
      unserved: endpointRecipes.filter((e) => !e.declared).map((e) => e.path),
      scopes: scopesToRequest(routesOf(planned)),
    };
  });
  return { version: RECIPE_VERSION, generated_at: options.now.toISOString(), plan: options.plan, integrations };
}

/** The category of an integration's v2 calls that comes nearest its limit: what to watch first after the move. */
export function busiestCategory(integration: IntegrationRecipe): CategoryHeadroom | undefined {
  return [...integration.categories].sort((a, b) => b.load - a.load || b.v2Calls - a.v2Calls)[0];
}

/** Every v2 route an integration's endpoints may call, declared or recorded, each once. */
export function routesOf(
  integration: Pick<IntegrationRecipe, 'endpoints'>,
): { route: string; category: RateLimitCategory; scopes: V2Scopes | null }[] {
  const routes = new Map<string, { route: string; category: RateLimitCategory; scopes: V2Scopes | null }>();
  for (const endpoint of integration.endpoints) {
    for (const step of [...(endpoint.declared?.steps ?? []), ...(endpoint.declared?.undo ?? [])])
      routes.set(step.route, { route: step.route, category: step.category, scopes: step.scopes });
  }
  return [...routes.values()].sort((a, b) => a.route.localeCompare(b.route));
}
