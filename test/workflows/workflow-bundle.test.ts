import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../../scripts/bundle-workflows';
import { workerTracingOptions } from '../../src/platform/observability/worker-tracing';

/** The bundle the Dockerfile makes is one the worker can load, and it runs the same workflows as the source. */

const HISTORIES_DIR = path.resolve(__dirname, '../fixtures/histories');
let directory: string;
beforeAll(() => {
  // Quiet: webpack's report and the replay worker's state changes come at INFO.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  directory = mkdtempSync(path.join(os.tmpdir(), 'hotel-pms-bundle-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('replays every recorded history from the prebuilt workflow bundle', async () => {
  const codePath = path.join(directory, 'workflow-bundle.js');
  await bundleWorkflows(codePath, Runtime.instance().logger);
  const histories = readdirSync(HISTORIES_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({
      workflowId: file,
      history: historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'))),
    }));
  const failures: string[] = [];
  // As workers/main.ts runs it without tracing configured: the bundle's tracing interceptors find their sink.
  const options = { workflowBundle: { codePath }, ...workerTracingOptions(undefined, true) };
  for await (const result of Worker.runReplayHistories(options, histories)) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(histories.length).toBeGreaterThan(0);
  expect(failures).toEqual([]);
});
