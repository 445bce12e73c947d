import { CommandFailure } from '../protocol';
import { objectField, stringField, type Payload } from '../payload';

export interface PrinterInfo {
  name: string;
  is_default: boolean;
  status?: string;
}

export const DEFAULT_PRINTERS: PrinterInfo[] = [
  { name: 'ATOL 30F', is_default: true, status: 'ready' },
  { name: 'Microsoft Print to PDF', is_default: false, status: 'ready' },
];

const ECHO_REQUESTS = 4;
const HTTP_TIMEOUT_MS = 30_000;

type EchoReply = { seq: number; time_ms: number } | { seq: number; error: string };

/** The workstation itself: its serial ports, its Windows printers and its network. */
export class Desk {
  readonly unreachableHosts: Set<string>;
  /** Whether the serial driver reports port names as C strings, U+0000 included (some do). */
  nulTerminatedPorts = false;

  constructor(
    readonly serialPorts: readonly string[],
    readonly printers: readonly PrinterInfo[],
    private readonly encoderPort: string,
    unreachableHosts: Iterable<string> = [],
  ) {
    this.unreachableHosts = new Set(unreachableHosts);
  }

  ping(payload: Payload): { host: string; sent: number; received: number; replies: EchoReply[] } {
    const host = stringField(payload, 'host');
    const reachable = !this.unreachableHosts.has(host);
    const replies: EchoReply[] = Array.from({ length: ECHO_REQUESTS }, (_, index) =>
      reachable ? { seq: index + 1, time_ms: 1 + (index % 3) } : { seq: index + 1, error: 'timeout' },
    );
    return { host, sent: ECHO_REQUESTS, received: reachable ? ECHO_REQUESTS : 0, replies };
  }

  listPorts(): { ports: { name: string; description: string }[] } {
    return {
      ports: this.serialPorts.map((name) => ({
        name: this.nulTerminatedPorts ? `${name}\u0000` : name,
        description: name === this.encoderPort ? 'USB-SERIAL CH340 (card encoder)' : 'Communications Port',
      })),
    };
  }

  listPrinters(): { printers: PrinterInfo[] } {
    return { printers: [...this.printers] };
  }

  testDevice(payload: Payload): { message: string; details?: Record<string, unknown> } {
    const device = objectField(payload, 'device');
    const type = stringField(device, 'type');
    const connection = stringField(device, 'connection');
    if (connection === 'com') {
      const comPort = stringField(device, 'com_port');
      if (!this.serialPorts.includes(comPort)) {
        throw new CommandFailure('device_not_found', `No device answers on ${comPort}`);
      }
      return { message: `${type} answered on ${comPort}`, details: { com_port: comPort } };
    }
    return { message: `${type} answered over ${connection}` };
  }

  async httpRequest(payload: Payload): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const url = stringField(payload, 'url');
    const method = typeof payload.method === 'string' ? payload.method : 'GET';
    const headers = (payload.headers ?? {}) as Record<string, string>;
    const body = typeof payload.body === 'string' || payload.body == null ? payload.body : JSON.stringify(payload.body);
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new CommandFailure(timedOut ? 'timeout' : 'http_failed', `${method} ${url}: ${String(error)}`);
    }
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  }
}
