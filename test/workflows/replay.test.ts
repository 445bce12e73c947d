import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { reportGate } from '../helpers/gates';

/**
 * The replay gate: every history recorded from real runs (`npm run record-histories`) is replayed by the current
 * workflow code, so a change that would break workflows already running (a command added, removed or reordered
 * without `patched()`) fails here, before it ships.
 */
const HISTORIES_DIR = path.resolve(__dirname, '../fixtures/histories');

interface RecordedHistory {
  /** The file name without `.json`, also used as the workflow id during replay (histories carry none). */
  name: string;
  workflowType: string;
  history: ReturnType<typeof historyFromJSON>;
}

function loadHistories(): RecordedHistory[] {
  return readdirSync(HISTORIES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
      const workflowType = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
      if (!workflowType) throw new Error(`${file}: the first event is not a workflow start`);
      return { name: file.replace(/\.json$/, ''), workflowType, history };
    });
}

/** The workflow types the worker registers: every function exported by workflows/index.ts. */
function exportedWorkflowTypes(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const workflows = require('../../workflows') as Record<string, unknown>;
  return Object.entries(workflows)
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name)
    .sort();
}

const histories = loadHistories();

beforeAll(() => {
  try {
    // Quiet, SDK Core included: the deliberate nondeterminism below is reported through the replay result.
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // Another test in this process installed the runtime already; it may be installed only once.
  }
});

describe('workflow replay', () => {
  it('has at least one recorded history for every exported workflow type, and none for an unknown type', () => {
    const exported = exportedWorkflowTypes();
    const recorded = new Set(histories.map((h) => h.workflowType));
    // A new workflow needs its histories: run `npm run record-histories` (after adding its case to the recorder).
    expect(exported.filter((type) => !recorded.has(type))).toEqual([]);
    expect([...recorded].filter((type) => !exported.includes(type))).toEqual([]);
  });

  it('replays every recorded history with the current workflow code, without nondeterminism', async () => {
    expect(histories.length).toBeGreaterThan(0);
    const failures: { history: string; error: string }[] = [];
    let replayed = 0;
    const results = Worker.runReplayHistories(
      { workflowsPath: require.resolve('../../workflows') },
      histories.map(({ name, history }) => ({ workflowId: name, history })),
    );
    for await (const result of results) {
      replayed += 1;
      if (result.error)
        failures.push({ history: result.workflowId, error: `${result.error.name}: ${result.error.message}` });
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(histories.length);
    const types = new Set(histories.map((h) => h.workflowType)).size;
    reportGate('replay', `${replayed} histories replayed, ${types} workflow types`);
  }, 120_000);

  it('catches a change in command order: a booking history against a booking that sleeps first fails', async () => {
    const recorded = histories.find((h) => h.workflowType === 'booking');
    expect(recorded).toBeDefined();
    const replay = Worker.runReplayHistory(
      { workflowsPath: require.resolve('../fixtures/nondeterministic-workflows') },
      recorded!.history,
      recorded!.name,
    );
    await expect(replay).rejects.toBeInstanceOf(DeterminismViolationError);
  }, 120_000);
});
