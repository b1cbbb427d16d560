import { z } from 'zod';
import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import { readBody } from '../validation.js';

const pagingBody = z.strictObject({
  token_only: z.boolean().optional(),
  max_page_size: z.number().int().min(1).max(300).optional(),
});

/**
 * PUT /sandbox/paging  body {token_only?, max_page_size?} → 200 {token_only, max_page_size}
 * How every v2 list pages from now on (paging.ts, `PagingMode`): `token_only` ignores
 * `page_number` and leaves `page_count`/`page_number` out of every answer; `max_page_size` serves
 * a larger `page_size` at that size. GET answers the mode in force.
 */
export function registerPagingControlRoutes(app: Hono, { state }: SandboxContext): void {
  const render = () => ({ token_only: state.pages.mode.tokenOnly, max_page_size: state.pages.mode.maxPageSize });
  app.get('/paging', (c) => c.json(render()));
  app.put('/paging', async (c) => {
    const body = await readBody(c, pagingBody);
    if (body.token_only !== undefined) state.pages.mode.tokenOnly = body.token_only;
    if (body.max_page_size !== undefined) state.pages.mode.maxPageSize = body.max_page_size;
    return c.json(render());
  });
}
