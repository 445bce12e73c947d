import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a request is for, as every log line written during it says. */
export interface RequestBindings {
  reqId: string;
  userId?: string;
  hotelId?: string;
}

const storage = new AsyncLocalStorage<RequestBindings>();

/** Runs `handle` (the rest of the request) with `bindings`, so code at any depth logs them without being passed them. */
export function runWithRequestBindings<T>(bindings: RequestBindings, handle: () => T): T {
  return storage.run(bindings, handle);
}

/** Adds what the request learns on its way (the authenticated user, the hotel) to the lines logged from now on. */
export function bindToRequest(fields: Pick<RequestBindings, 'userId' | 'hotelId'>): void {
  const bindings = storage.getStore();
  if (bindings) Object.assign(bindings, fields);
}

/** The current request's bindings as a fresh object (pino merges a log line's fields into it), or none. */
export function requestLogFields(): Partial<RequestBindings> {
  const bindings = storage.getStore();
  return bindings ? { ...bindings } : {};
}
