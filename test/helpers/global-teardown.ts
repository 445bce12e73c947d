import { rmSync } from 'node:fs';
import { readStackInfo, STACK_FILE } from './stack-env';

export default async function globalTeardown(): Promise<void> {
  const running = globalThis.__TEST_STACK__;
  if (!running) return;
  const { dataDir } = readStackInfo();
  await running.worker.stop();
  await running.stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(STACK_FILE, { force: true });
}
