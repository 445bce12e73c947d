import pino from 'pino';
import { startupStep } from '../../src/platform/temporal/startup-step';

const silent = pino({ level: 'silent' });

describe("a worker's start-up step against Temporal", () => {
  it('is tried again until it succeeds, so a server still restarting does not end the worker', async () => {
    let tries = 0;
    const answer = await startupStep(silent, 'schedules', async () => {
      tries += 1;
      if (tries < 3) throw new Error('deadline exceeded');
      return 'done';
    });
    expect({ answer, tries }).toEqual({ answer: 'done', tries: 3 });
  });

  it('gives up with its last failure once its time is spent', async () => {
    let tries = 0;
    const failing = startupStep(
      silent,
      'connect',
      async () => {
        tries += 1;
        throw new Error(`refused ${tries}`);
      },
      2_500,
    );
    await expect(failing).rejects.toThrow('refused 2');
  });
});
