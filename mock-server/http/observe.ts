import type { Request, Response } from 'express';
import { isAdminPath } from '../admin/access.ts';
import { MAX_JOURNAL_URL, type Journal } from '../admin/journal.ts';
import type { Logger } from './logging.ts';

/**
 * Times each request and, when it has been answered, logs one line (at `info`) and
 * records it in the journal (admin requests are logged but not journaled, so reading the
 * journal does not push out what it is read for). Answers undefined, so that nothing
 * is observed, when the journal is off and the level excludes `info`.
 */
export function observeRequests(journal: Journal, logger: Logger): RequestObserver | undefined {
  const logRequests = logger.isLevelEnabled('info');
  const journaling = journal.capacity > 0;
  if (!logRequests && !journaling) return undefined;
  return (req: Request, res: Response) => {
    const arrived = Date.now();
    const stamp = journal.arrival();
    const start = performance.now();
    res.once('finish', () => {
      const durationMs = Math.round((performance.now() - start) * 10) / 10;
      const raw = req.originalUrl;
      const url = raw.length > MAX_JOURNAL_URL ? `${raw.slice(0, MAX_JOURNAL_URL)}...` : raw;
      const status = res.statusCode;
      if (logRequests) logger.info({ method: req.method, url, status, durationMs }, 'request');
      if (journaling && !isAdminPath(raw)) journal.record({ arrivedMs: arrived, method: req.method, url, status, durationMs }, stamp);
    });
  };
}

/** Starts observing one request (it is timed from here), until its answer is out. */
export type RequestObserver = (req: Request, res: Response) => void;
