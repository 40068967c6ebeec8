import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { routeTemplateOf } from './metrics.js';

/** What a request-log line carries besides its message (JSON logs; the terminal shows the message only). */
export interface RequestLogFields {
  method: string;
  /** The route pattern (`/v1/tenants/:id`), never the raw path or query: ids and query values stay out. */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The caller's organization (slug and id) once authenticated; absent on a 401 or a public page. */
  organization?: string;
  organizationId?: string;
  environment?: string;
  /** GraphQL: the operation name the client gave. */
  operation?: string;
}

/** Health probes arrive every few seconds from a load balancer: at debug, so info is the API's traffic. */
const QUIET_ROUTES = new Set(['/health/live', '/health/ready']);

/**
 * One line per request at info when it finishes (issue #33 item 8): method, route pattern, status, duration,
 * request id and organization; never a credential, a query string or a body. LOG_LEVEL=warn quiets it. When
 * info is off the middleware only calls `next`: the perf bench runs with the log on, so the line is built
 * from fields Express already has (no child logger, no serializers of req/res, unlike pino-http's default).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeTemplateOf(req);
      const quiet = QUIET_ROUTES.has(route);
      if (quiet ? !logger.isLevelEnabled('debug') : !logger.isLevelEnabled('info')) return;
      const fields: RequestLogFields = {
        method: req.method,
        route,
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100,
        requestId: req.requestId,
      };
      const viewer = req.viewer;
      if (viewer) {
        fields.organization = viewer.organizationSlug;
        fields.organizationId = viewer.organizationId;
        fields.environment = viewer.environment;
      }
      const operationName = (req.body as { operationName?: unknown } | undefined)?.operationName;
      if (route === '/graphql' && typeof operationName === 'string')
        fields.operation = operationName.slice(0, 100);
      const message =
        `${fields.method} ${route}${fields.operation ? ` ${fields.operation}` : ''} ${fields.status} ` +
        `${fields.durationMs} ms${fields.organization ? ` ${fields.organization}` : ''} ${fields.requestId}`;
      if (quiet) logger.debug({ http: fields }, message);
      else logger.info({ http: fields }, message);
    });
    next();
  };
}
