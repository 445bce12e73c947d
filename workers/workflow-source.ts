import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorkerOptions } from '@temporalio/worker';

/** The name scripts/bundle-workflows.ts gives the bundle, beside the compiled worker's folder (dist/). */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

/**
 * The workflow code the worker runs: the bundle made when the image was built, so a container starts without
 * running webpack; otherwise (npm run dev, tests) workflows/ bundled at start-up.
 */
export function workflowSource(): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  const codePath = path.resolve(__dirname, '..', WORKFLOW_BUNDLE_FILE);
  return existsSync(codePath) ? { workflowBundle: { codePath } } : { workflowsPath: require.resolve('../workflows') };
}
