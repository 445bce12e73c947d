export { createTTLockClient, TTLOCK_API_HOSTS, TTLOCK_MAX_PAGE_SIZE, TTLOCK_MAX_PAGES } from './client';
export type { TTLockClient, TTLockClientOptions } from './client';
export { HOTEL_INFO_LIFETIME_MS } from './answers';
export { TTLockError } from './errors';
export type * from './types';
