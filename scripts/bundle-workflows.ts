import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode, type Logger } from '@temporalio/worker';
import { WORKFLOW_TRACING_INTERCEPTORS } from '../src/platform/observability/worker-tracing';
import { WORKFLOW_BUNDLE_FILE } from '../workers/workflow-source';

/**
 * Webpacks workflows/ into one file, as the worker otherwise does at every start. Workflow interceptor modules the
 * worker registers must be passed here too (`workflowInterceptorModules`): a prebuilt bundle is used as it is. The
 * tracing interceptors are always in it, so an image traces its workflows once OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export async function bundleWorkflows(outFile: string, logger?: Logger): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: [WORKFLOW_TRACING_INTERCEPTORS],
    logger,
  });
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
