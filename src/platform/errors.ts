import type { ErrorRequestHandler } from 'express';
import { KnexTimeoutError } from 'knex';
import { STATUS_CODES } from 'node:http';
import { databaseError } from './db/base-model';

export interface ValidationDetail {
  path: string;
  message: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Every problem type is `/api/problems/<code>`: a reference inside this API, resolved against its address. */
export const PROBLEM_TYPE_PREFIX = '/api/problems/';

/** One title per status, so a problem type (one code, one status) always has the same title (RFC 9457 §3.1.3). */
const PROBLEM_TITLES: Record<number, string> = {
  400: 'Некорректный запрос',
  401: 'Требуется авторизация',
  403: 'Нет доступа',
  404: 'Не найдено',
  409: 'Конфликт',
  412: 'Версия изменилась',
  413: 'Слишком большой запрос',
  415: 'Неподдерживаемый тип содержимого',
  422: 'Запрос отклонён правилами',
  428: 'Требуется условие запроса',
  429: 'Слишком много запросов',
  500: 'Внутренняя ошибка сервера',
  502: 'Ошибка внешней системы',
  503: 'Сервис временно недоступен',
  504: 'Внешняя система не ответила',
};

/**
 * An RFC 9457 problem details body. `error` repeats `detail` because the interface spec names that field; `code` is
 * the stable machine identifier (`type` without its prefix). Extensions such as `details` and `errors` go after.
 */
export function problemBody(
  status: number,
  code: string,
  message: string,
  extensions: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: PROBLEM_TITLES[status] ?? STATUS_CODES[status] ?? 'Ошибка',
    status,
    detail: message,
    code,
    error: message,
    ...extensions,
  };
}

/** Every refusal the service makes: a status, a stable machine code and the message shown to the client. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): Record<string, unknown> {
    return problemBody(this.status, this.code, this.message);
  }
}

/**
 * A refusal that repeating the call answers the same way: an AppError below 500, but 429 ("later"). The activity
 * boundary fails such an activity for good; a step that must tell someone first asks the same question.
 */
export const refusesForGood = (error: unknown): error is AppError =>
  error instanceof AppError && error.status < 500 && error.status !== 429;

export class ValidationError extends AppError {
  constructor(
    message: string,
    readonly details: ValidationDetail[] = [],
  ) {
    super(400, 'validation_failed', message);
  }

  override toBody(): Record<string, unknown> {
    return problemBody(this.status, this.code, this.message, this.details.length > 0 ? { details: this.details } : {});
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Требуется авторизация', code = 'unauthorized') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Недостаточно прав', code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Не найдено', code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

/** `If-Match` named a version of the record that is no longer the current one: nothing was changed. */
export class PreconditionFailedError extends AppError {
  constructor(message = 'Запись изменилась с тех пор, как вы её получили: загрузите её заново и повторите изменение') {
    super(412, 'precondition_failed', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Слишком большой запрос') {
    super(413, 'payload_too_large', message);
  }
}

/** The content is of a kind the service does not accept (decided by the content, not by its declared type). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Неподдерживаемый тип содержимого') {
    super(415, 'unsupported_media_type', message);
  }
}

/** A business rule refused the request; `errors` lists every rule that failed. */
export class BusinessRuleError extends AppError {
  constructor(
    message: string,
    readonly errors: string[] = [],
    code = 'business_rule',
  ) {
    super(422, code, message);
  }

  override toBody(): Record<string, unknown> {
    return problemBody(this.status, this.code, this.message, { errors: this.errors });
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Слишком много попыток. Повторите позже.');
  }
}

/**
 * The service cannot do this right now (a lock or the pool stayed busy, or one hotel has too many requests in flight)
 * and did not do it: the same request may be sent again after `Retry-After`.
 */
export class ServiceUnavailableError extends AppError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(503, code, message);
  }
}

/** A system the service relies on for this request (a desk's agent, a provider) answered with a refusal or an error. */
export class BadGatewayError extends AppError {
  constructor(
    code: string,
    message: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(502, code, message);
  }

  override toBody(): Record<string, unknown> {
    return problemBody(this.status, this.code, this.message, this.extensions);
  }
}

/** A system the service relies on for this request did not answer in time; whether it acted is unknown. */
export class GatewayTimeoutError extends AppError {
  constructor(code: string, message: string) {
    super(504, code, message);
  }
}

const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';
const DEADLOCK_DETECTED = '40P01';

/**
 * A wait the database gave up on (lock_timeout, statement_timeout, no free pool connection, a deadlock it broke by
 * rolling this transaction back): the work was rolled back.
 */
function databaseWaitError(error: unknown): ServiceUnavailableError | undefined {
  if (error instanceof KnexTimeoutError) {
    return new ServiceUnavailableError('database_busy', 'Сервис перегружен. Повторите запрос через несколько секунд.');
  }
  const { code } = databaseError(error);
  if (code === LOCK_NOT_AVAILABLE) {
    return new ServiceUnavailableError(
      'lock_timeout',
      'Эти данные сейчас изменяет другой запрос. Повторите запрос через несколько секунд.',
    );
  }
  if (code === DEADLOCK_DETECTED) {
    return new ServiceUnavailableError(
      'deadlock',
      'Запрос столкнулся с другим, изменявшим те же данные, и отменён. Повторите запрос через несколько секунд.',
    );
  }
  if (code === QUERY_CANCELED) {
    return new ServiceUnavailableError('statement_timeout', 'Запрос выполнялся слишком долго. Повторите его позже.');
  }
  return undefined;
}

/**
 * The database refused a value (SQLSTATE class 22: a number beyond its column, a character it cannot store, a date
 * out of range). Schemas bound every input before any work, so this is a safety net: the request was bad and nothing
 * was written, which is a 400, not a 500.
 */
function dataExceptionError(error: unknown): ValidationError | undefined {
  const { code } = databaseError(error);
  if (!code?.startsWith('22')) return undefined;
  return new ValidationError('Значение вне допустимых пределов или содержит недопустимые символы');
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Translates framework and database errors (body parser, malformed URL, waits given up) into AppErrors. */
function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.too.large') return new PayloadTooLargeError();
  const databaseRefusal = databaseWaitError(error) ?? dataExceptionError(error);
  if (databaseRefusal) return databaseRefusal;
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new ValidationError('Некорректный запрос');
  }
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const appError = asAppError(error);
  if (!appError) {
    req.log.error({ err: error }, 'unhandled error');
    res
      .status(500)
      .type(PROBLEM_CONTENT_TYPE)
      .json(problemBody(500, 'internal', 'Внутренняя ошибка сервера'));
    return;
  }
  if (appError instanceof RateLimitedError || appError instanceof ServiceUnavailableError) {
    res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  }
  if (appError.status >= 500) req.log.error({ err: error }, appError.message);
  // A value only the database refused means a schema lacks a bound: answered 400, but worth an operator's look.
  else if (databaseError(error).code?.startsWith('22')) req.log.warn({ err: error }, 'database refused a value');
  res.status(appError.status).type(PROBLEM_CONTENT_TYPE).json(appError.toBody());
};
