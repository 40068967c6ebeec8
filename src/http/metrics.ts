import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { Kind } from 'graphql';
import express, { type NextFunction, type Request, type Response } from 'express';
import { httpRequestDuration, metricsRegistry, recordGraphQLOperation } from '../core/metrics.js';

/**
 * The route template a request matched (`/v1/tenants/:tenantId/users`), never its raw path, so the
 * histogram's label set stays the size of the route table. Requests that matched no route (404s, refusals
 * before routing such as 401 and 429) share one label.
 */
export function routeTemplateOf(req: Request): string {
  if (req.route && typeof req.route.path === 'string') return `${req.baseUrl}${req.route.path}`;
  if (req.originalUrl.startsWith('/graphql')) return '/graphql';
  return 'unmatched';
}

/** Times every HTTP request into http_request_duration_seconds once its response is finished. */
export function httpMetricsMiddleware() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stopTimer = httpRequestDuration.startTimer();
    res.once('finish', () =>
      stopTimer({ method: req.method, route: routeTemplateOf(req), status: String(res.statusCode) }),
    );
    next();
  };
}

/** Counts each GraphQL operation by name, type and outcome when its response is sent. */
export function graphqlMetricsPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        willSendResponse({ operation, operationName, document, errors }) {
          // A document that failed validation has no resolved operation: name it from its only operation.
          const operations = document?.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION) ?? [];
          const onlyName = operations.length === 1 ? operations[0].name?.value : undefined;
          recordGraphQLOperation(
            operation?.name?.value ?? operationName ?? onlyName,
            operation?.operation ?? 'unknown',
            !errors?.length,
          );
          return Promise.resolve();
        },
      });
    },
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics in Prometheus text format, for a scraper holding METRICS_TOKEN as a bearer token. Without a
 * token configured the route does not exist (404): metrics name routes, tasks and volumes, which is not for
 * the public internet.
 */
export function metricsRouter(token: string | undefined): express.Router {
  const router = express.Router();
  if (!token) return router;
  const expected = digest(token);
  router.get('/metrics', async (req: Request, res: Response, next: NextFunction) => {
    const presented = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
    // Digests of equal length, compared in constant time: the answer time says nothing about the token.
    if (!timingSafeEqual(digest(presented), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).type('text/plain').send('metrics need Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    try {
      const body = await metricsRegistry.metrics();
      res.type(metricsRegistry.contentType).send(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
