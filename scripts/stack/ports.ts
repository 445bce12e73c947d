import { createServer } from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The dev stack's sandboxes listen on fixed ports, so `npm run seed` finds them (and push endpoints stay valid). */
export const DEV_PORTS = { yookassa: 4570, push: 4571, pushInbox: 4572, channex: 4573 } as const;
