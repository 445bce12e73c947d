import { rmSync } from 'node:fs';
import { stackFile } from './stack-env';

export default async function globalTeardown(): Promise<void> {
  const running = globalThis.__TEST_STACK__;
  if (!running) return;
  await running.worker.stop();
  await running.stack.stop();
  rmSync(stackFile(), { force: true });
}
