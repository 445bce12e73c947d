import { WebSocket } from 'ws';

/**
 * Closes every socket with `code` and waits for their close handshakes; peers normally answer at once, and those that
 * do not are cut off after `graceMs`.
 */
export async function closeSockets(sockets: WebSocket[], code: number, reason: string, graceMs: number): Promise<void> {
  const allClosed = Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close(code, reason);
        }),
    ),
  );
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([allClosed, new Promise<void>((resolve) => (grace = setTimeout(resolve, graceMs)))]);
  clearTimeout(grace);
  for (const ws of sockets) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
}
