import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Payments } from './payments';
import { asApiError, FakeApiError, internalServerError, invalidCredentials, invalidRequest, notFound } from './errors';
import type { CachedAnswer, FakeState, Shop } from './state';

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60_000;
const MAX_IDEMPOTENCE_KEY_LENGTH = 64;

type Operation = (shop: Shop, request: Request) => unknown;

/** YooKassa API v3, mounted at /v3: Basic auth, JSON, and an Idempotence-Key on every POST. */
export function apiRoutes(state: FakeState, payments: Payments): Router {
  const router = express.Router();
  router.use(authenticate(state));
  router.use((request, response, next) => {
    const { requests } = shopOf(response);
    const name = `${request.method} ${request.path}`;
    requests.set(name, (requests.get(name) ?? 0) + 1);
    next();
  });
  const post = (path: string, operation: Operation) =>
    router.post(path, requireJson, express.json(), idempotent(state, operation));
  const get = (path: string, read: (shop: Shop, id: string) => unknown) =>
    router.get(path, (request, response) => {
      response.json(read(shopOf(response), idOf(request)));
    });

  post('/payments', (shop, request) => payments.create(shop, request.body));
  get('/payments/:id', (shop, id) => payments.get(shop, id));
  post('/payments/:id/capture', (shop, request) => payments.capture(shop, idOf(request), request.body));
  post('/payments/:id/cancel', (shop, request) => payments.cancelHold(shop, idOf(request)));
  post('/refunds', (shop, request) => payments.refund(shop, request.body));
  get('/refunds/:id', (shop, id) => payments.getRefund(shop, id));
  router.use(() => {
    throw notFound('No such API method');
  });
  return router;
}

/**
 * Basic auth as YooKassa checks it: the shop id of a shop provisioned with `PUT /_fake/shops/:shopId` (as a real shop
 * is opened in its account) and that shop's secret key; anything else is 401 invalid_credentials.
 */
function authenticate(state: FakeState) {
  return (request: Request, response: Response, next: NextFunction) => {
    const [, encoded] = /^Basic\s+(\S+)$/i.exec(request.get('Authorization') ?? '') ?? [];
    const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const separator = decoded.indexOf(':');
    const shopId = decoded.slice(0, separator);
    const secretKey = decoded.slice(separator + 1);
    if (separator <= 0 || !secretKey) {
      throw invalidCredentials('Basic authentication is required: the shop id as the user, the secret key as password');
    }
    const shop = state.shops.get(shopId);
    if (shop?.secretKey === undefined || shop.secretKey !== secretKey) {
      throw invalidCredentials('Login or password is incorrect');
    }
    response.locals.shop = shop;
    next();
  };
}

function requireJson(request: Request, _response: Response, next: NextFunction): void {
  if (!request.is('application/json')) throw new FakeApiError(415, 'invalid_request', 'The body must be JSON');
  next();
}

/**
 * Runs a POST once per shop and idempotence key: a repeat with the same body gets the first answer (its status and
 * body, an error included) and changes nothing; a repeat with another body is refused. The shop's injected faults
 * act here: `unavailable` answers 500 without acting, `lose_response` acts, keeps the answer and still answers 500.
 */
function idempotent(state: FakeState, operation: Operation) {
  return (request: Request, response: Response) => {
    const shop = shopOf(response);
    const key = request.get('Idempotence-Key');
    if (!key || key.length > MAX_IDEMPOTENCE_KEY_LENGTH) {
      throw invalidRequest(`Idempotence-Key must be 1 to ${MAX_IDEMPOTENCE_KEY_LENGTH} characters`, 'Idempotence-Key');
    }
    const fault = state.takeFault(shop);
    if (fault === 'unavailable') throw internalServerError();
    const now = state.now(shop);
    const fingerprint = `${request.method} ${request.originalUrl} ${JSON.stringify(request.body)}`;
    let answer = shop.idempotency.get(key);
    if (answer && answer.expiresAt <= now) answer = undefined;
    if (answer && answer.fingerprint !== fingerprint) {
      throw invalidRequest('Idempotence key duplicated: it was used with another request', 'Idempotence-Key');
    }
    if (!answer) {
      answer = { fingerprint, expiresAt: now + IDEMPOTENCY_WINDOW_MS, ...perform(operation, shop, request) };
      shop.idempotency.set(key, answer);
    }
    if (fault === 'lose_response') throw internalServerError();
    response.status(answer.status).json(answer.body);
  };
}

function perform(operation: Operation, shop: Shop, request: Request): Pick<CachedAnswer, 'status' | 'body'> {
  try {
    return { status: 200, body: operation(shop, request) };
  } catch (error) {
    const failure = asApiError(error);
    if (failure.status >= 500) throw failure;
    return { status: failure.status, body: failure.body() };
  }
}

function shopOf(response: Response): Shop {
  return response.locals.shop as Shop;
}

function idOf(request: Request): string {
  return (request.params as { id: string }).id;
}
