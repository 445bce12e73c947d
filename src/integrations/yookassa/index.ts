export { createYooKassaClient, MAX_IDEMPOTENCE_KEY_LENGTH } from './client';
export type { YooKassaClient, YooKassaClientOptions } from './client';
export { YooKassaError, YooKassaRequestError, YooKassaUnavailableError } from './errors';
export type * from './types';
