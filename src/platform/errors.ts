import type { ErrorRequestHandler } from 'express';

export interface ValidationDetail {
  path: string;
  message: string;
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
    return { error: this.message };
  }
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    readonly details: ValidationDetail[] = [],
  ) {
    super(400, 'validation_failed', message);
  }

  override toBody(): Record<string, unknown> {
    return this.details.length > 0 ? { error: this.message, details: this.details } : { error: this.message };
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
    return { error: this.message, errors: this.errors };
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Слишком много попыток. Повторите позже.');
  }
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Translates framework errors (body parser, malformed URL) into AppErrors; anything else stays unknown. */
function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.too.large') return new PayloadTooLargeError();
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
    res.status(500).json({ error: 'Внутренняя ошибка сервера' });
    return;
  }
  if (appError instanceof RateLimitedError) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (appError.status >= 500) req.log.error({ err: error }, appError.message);
  res.status(appError.status).json(appError.toBody());
};
