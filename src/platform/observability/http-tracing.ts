import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { RequestHandler } from 'express';
import { routeTemplate } from './route-template';

const tracer = trace.getTracer('hotel-pms-http');

/**
 * A server span per request, continuing the caller's trace when it sends `traceparent`; everything the request does
 * (the outbox messages it enqueues among them) runs inside it. Named after the route template, never the URL.
 */
export const traceRequests: RequestHandler = (req, res, next) => {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(
    req.method,
    { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method } },
    parent,
  );
  const end = () => {
    res.off('finish', end);
    res.off('close', end);
    const route = routeTemplate(req);
    span.updateName(`${req.method} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
    // A connection closed before the answer was sent has no status of its own.
    if (res.writableFinished) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
    if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  context.with(trace.setSpan(parent, span), next);
};
