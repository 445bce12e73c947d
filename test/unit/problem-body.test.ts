import express from 'express';
import { pinoHttp } from 'pino-http';
import supertest from 'supertest';
import { BusinessRuleError, errorHandler, problemBody } from '../../src/platform/errors';
import { createLogger } from '../../src/platform/logger';
import { problem } from '../helpers/problem';

/** The error handler on its own: what no request to the real app can provoke on purpose (a defect: 500). */
function appThrowing(error: unknown) {
  const app = express();
  app.use(pinoHttp({ logger: createLogger('silent', 'test') }));
  app.get('/', () => {
    throw error;
  });
  app.use(errorHandler);
  return supertest(app);
}

it('a defect is a 500 problem with the code internal, and nothing of the error leaks', async () => {
  const response = await appThrowing(new Error('relation "secret_table" does not exist')).get('/').expect(500);
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(response.body).toEqual(problem(500, 'internal', 'Внутренняя ошибка сервера'));
  expect(response.text).not.toContain('secret_table');
});

it('a refused business rule keeps every failed rule in errors', async () => {
  const response = await appThrowing(new BusinessRuleError('Нельзя', ['первое', 'второе'], 'rule_code')).get('/');
  expect(response.status).toBe(422);
  expect(response.body).toEqual(problem(422, 'rule_code', 'Нельзя', { errors: ['первое', 'второе'] }));
});

it('problemBody gives other transports (a refused WebSocket upgrade) the same body', () => {
  expect(problemBody(401, 'unauthorized', 'Требуется авторизация')).toEqual({
    type: '/api/problems/unauthorized',
    title: 'Требуется авторизация',
    status: 401,
    detail: 'Требуется авторизация',
    code: 'unauthorized',
    error: 'Требуется авторизация',
  });
  expect(problemBody(418, 'teapot', 'Я чайник').title).toBe("I'm a Teapot");
});

it.each([
  ['22003', 'numeric value out of range'],
  ['22021', 'character not in repertoire'],
  ['22008', 'datetime field overflow'],
])('a value the database refuses (SQLSTATE %s, %s) is a 400, not a 500, and leaks nothing', async (code, text) => {
  const refused = Object.assign(new Error(`${text} in column "secret_column"`), { code });
  const response = await appThrowing(refused).get('/').expect(400);
  expect(response.body).toEqual(
    problem(400, 'validation_failed', 'Значение вне допустимых пределов или содержит недопустимые символы'),
  );
  expect(response.text).not.toContain('secret_column');
});

it('a transaction the database rolled back to break a deadlock is a 503 with Retry-After, never a 500', async () => {
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
  const response = await appThrowing(deadlock).get('/').expect(503);
  expect(response.headers['retry-after']).toBe('1');
  expect(response.body.code).toBe('deadlock');
});
