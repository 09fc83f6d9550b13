import { Router, type Request } from 'express';
import { ADMIN_PREFIX } from '../../lib/admin-paths.ts';
import { invalidRequest } from '../helpers/errors.ts';
import type { PactRecorder } from './recorder.ts';

/**
 * The admin door of the consumer's pacts (`serve --pact-consumer`), mounted at ADMIN_PREFIX after
 * the admin guard (admin/access.ts: the same access rules as every other admin change):
 *
 *   GET  /__admin/pacts   what is recorded: interactions per provider, the requests left out and why
 *   POST /__admin/pacts   writes the pact files now (merged with the directory's); answers the paths and the report
 */
export function pactsAdminRouter(recorder: PactRecorder): Router {
  const router = Router();
  const noQuery = (req: Request) => {
    if (req.originalUrl.includes('?')) throw invalidRequest(`${req.method} ${ADMIN_PREFIX}/pacts takes no query parameters`);
  };
  router.get('/pacts', (req, res) => {
    noQuery(req);
    res.json(recorder.report());
  });
  router.post('/pacts', (req, res) => {
    noQuery(req);
    const written = recorder.write();
    res.json({ written, ...recorder.report() });
  });
  return router;
}
