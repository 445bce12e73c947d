import { ApplicationFailure } from '@temporalio/common';
import { SHARED_SETTINGS } from '../../src/platform/config';
import type { Mailer } from '../../src/platform/mail';
import { buildModules, defineModule } from '../../src/platform/modules';
import {
  BadGatewayError,
  BusinessRuleError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../../src/platform/errors';

/**
 * The activity boundary, as the worker registers a module's activities: a service's refusal (a record gone, a rule)
 * fails for good with the words staff read and the failure type the module declares; everything else goes through.
 */

const throwing = (error: unknown) => async () => {
  throw error;
};

function workerActivities(refusals?: { type?: string; withCode?: boolean }) {
  const area = defineModule({
    name: 'area',
    uses: [],
    create: () => ({}),
    activities: () => ({
      answer: async (value: number) => value * 2,
      gone: throwing(new NotFoundError('Записи нет')),
      ruled: throwing(new BusinessRuleError('Нельзя', [], 'not_allowed')),
      later: throwing(new RateLimitedError(5)),
      upstream: throwing(new BadGatewayError('provider_failed', 'Провайдер не ответил')),
      busy: throwing(new ServiceUnavailableError('busy', 'Занято')),
      decided: throwing(ApplicationFailure.retryable('Снова', 'Busy')),
      bug: throwing(new TypeError('undefined is not a function')),
    }),
    refusals,
  });
  const config = Object.fromEntries(SHARED_SETTINGS.map((name) => [name, undefined])) as never;
  const modules = buildModules([area] as const, { db: {} as never, config, storage: {} as never });
  return modules.activities({} as Mailer) as Record<string, (...args: unknown[]) => Promise<unknown>>;
}

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the activity boundary', () => {
  it('keeps names and answers', async () => {
    const activities = workerActivities();
    expect(Object.keys(activities).sort()).toEqual(
      ['answer', 'bug', 'busy', 'decided', 'gone', 'later', 'ruled', 'upstream'].sort(),
    );
    expect(await activities.answer(21)).toBe(42);
  });

  it("turns a refusal into a non-retryable failure named after the error, or of the module's type", async () => {
    const gone = await failureOf(workerActivities().gone());
    expect(gone).toBeInstanceOf(ApplicationFailure);
    expect(gone).toMatchObject({ nonRetryable: true, type: 'NotFoundError', message: 'Записи нет', details: [] });
    const declared = workerActivities({ type: 'AreaRefused' });
    expect(await failureOf(declared.gone())).toMatchObject({ nonRetryable: true, type: 'AreaRefused' });
    expect(await failureOf(declared.ruled())).toMatchObject({
      nonRetryable: true,
      type: 'AreaRefused',
      message: 'Нельзя',
    });
  });

  it("carries the refusal's code when the module asks", async () => {
    const failure = await failureOf(workerActivities({ type: 'AreaRefused', withCode: true }).ruled());
    expect(failure).toMatchObject({
      nonRetryable: true,
      type: 'AreaRefused',
      details: [{ code: 'not_allowed', message: 'Нельзя' }],
    });
  });

  it('lets everything else through as it is, to be retried', async () => {
    const activities = workerActivities({ type: 'AreaRefused' });
    for (const name of ['later', 'upstream', 'busy', 'bug']) {
      const failure = await failureOf(activities[name]());
      expect(failure).not.toBeInstanceOf(ApplicationFailure);
    }
    expect(await failureOf(activities.later())).toBeInstanceOf(RateLimitedError);
    expect(await failureOf(activities.decided())).toMatchObject({ nonRetryable: false, type: 'Busy' });
  });
});
