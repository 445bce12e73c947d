import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode, type Logger } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_FILE } from '../workers/workflow-source';

/**
 * Webpacks workflows/ into one file, as the worker otherwise does at every start. Workflow interceptor modules the
 * worker registers must be passed here too (`workflowInterceptorModules`): a prebuilt bundle is used as it is.
 */
export async function bundleWorkflows(outFile: string, logger?: Logger): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger });
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, code);
}

/** The image build step: `node --import tsx scripts/bundle-workflows.ts` writes dist/workflow-bundle.js. */
if (require.main === module) {
  const outFile = path.resolve(__dirname, '../dist', WORKFLOW_BUNDLE_FILE);
  bundleWorkflows(outFile).then(
    () => console.log(`wrote ${path.relative(process.cwd(), outFile)}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
