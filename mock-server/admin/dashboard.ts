import type { Request, Response } from 'express';
import { lazily } from '../helpers/lazy.ts';

/**
 * `GET /__admin/` (and `/__admin`): the dashboard (dashboard-page.ts), loaded on its first request.
 * Behind the admin guard (access.ts) like every admin route; with `--admin-token` the guard lets
 * this page itself through without the token (a browser cannot send a bearer header when it
 * opens a page), since it holds no data: its script asks for the token and sends it on every call.
 */
const page = lazily(async () => (await import('./dashboard-page.ts')).dashboardPage());

export async function serveDashboard(req: Request, res: Response): Promise<void> {
  const { html, csp } = await page();
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  res.send(req.method === 'HEAD' ? undefined : html);
}
