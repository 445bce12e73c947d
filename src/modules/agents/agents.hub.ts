import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import type { PgListener } from '../../platform/db/pg-listener';
import { UnauthorizedError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { createSocketEndpoint, type SocketEndpoint } from '../../platform/realtime/socket-endpoint';
import {
  AGENT_COMMANDS_CHANNEL,
  AGENT_CONNECTIONS_CHANNEL,
  AGENT_REVOCATIONS_CHANNEL,
  PENDING_BATCH,
} from './agents.commands.repository';
import {
  AGENT_CHANNEL_PATH,
  AGENT_CLOSE,
  AGENT_HEARTBEAT_SECONDS,
  AGENT_HELLO_TIMEOUT_MS,
  AGENT_MAX_FRAME_BYTES,
  AGENT_PROTOCOL_VERSION,
  parseIncomingFrame,
  type Hello,
} from './agents.protocol';
import type { AgentsService } from './agents.service';
import type { AgentCommandRow, AgentIdentity } from './agents.types';

const MAX_CREDENTIAL_LENGTH = 200;

export interface AgentHubOptions {
  agents: AgentsService;
  listener: PgListener;
  logger: Logger;
  /** What agents are told to beat at; a connection silent for two intervals is closed. Tests pass less. */
  heartbeatSeconds?: number;
  helloTimeoutMs?: number;
}

/** Its `connectionCount` counts the connections that said hello (online agents on this replica). */
export type AgentHub = SocketEndpoint;

interface Connection {
  ws: WebSocket;
  identity: AgentIdentity;
  /** Kept to check it again when a revocation may have been missed (the LISTEN connection was lost). */
  credential: string;
  connectionId: string;
  welcomed: boolean;
  lastFrameAt: number;
  /** Cancels the close for a missing hello. */
  helloReceived: () => void;
  /** Settles once this connection's presence is recorded as ended. */
  ended?: Promise<void>;
  /** Its replies are recorded one after another, in the order sent: the first reply to a command is the one kept. */
  replies: Promise<void>;
  /**
   * Commands sent on this connection and not answered yet, with the wait (task token) each was sent for. The sweep of
   * pending commands at the welcome and an announcement can find the same command at once, and a socket loses
   * nothing: it is sent again only for a later attempt that took over the wait (a reply the desk lost).
   */
  sent: Map<string, string | null>;
}

function credentialOf(req: IncomingMessage): string | undefined {
  const match = /^Bearer ([\w.~+/-]+=*)$/.exec(req.headers.authorization ?? '');
  return match && match[1].length <= MAX_CREDENTIAL_LENGTH ? match[1] : undefined;
}

const commandFrame = (row: AgentCommandRow) =>
  JSON.stringify({ id: row.id, type: row.type, payload: row.payload, expires_at: row.expires_at.toISOString() });

/**
 * The agent channel (`/agents/ws`, protocol 1 in the README): authenticates agents by their credential, tracks their
 * presence, sends them the commands stored for their workstation (on connection and as they are announced), and
 * hands their replies to the command bus. Every replica runs one; a workstation is served by the replica holding its
 * newest connection.
 */
export function createAgentHub(options: AgentHubOptions): AgentHub {
  const { agents, listener, logger } = options;
  const heartbeatMs = (options.heartbeatSeconds ?? AGENT_HEARTBEAT_SECONDS) * 1000;
  const helloTimeoutMs = options.helloTimeoutMs ?? AGENT_HELLO_TIMEOUT_MS;
  const connections = new Set<Connection>();
  /** The welcomed connection of each workstation on this replica. */
  const byWorkstation = new Map<string, Connection>();

  const endpoint = createSocketEndpoint({
    path: AGENT_CHANNEL_PATH,
    name: 'agents',
    logger,
    maxPayload: AGENT_MAX_FRAME_BYTES,
    authorize,
    onConnection,
    goingAway: AGENT_CLOSE.goingAway,
    ready: () => listener.ready(),
  });

  const logFailure = (connection: Connection, what: string) => (error: unknown) =>
    logger.error(
      { err: error, hotelId: connection.identity.hotelId, workstationId: connection.identity.workstationId },
      what,
    );

  function close(connection: Connection, code: number, reason: string): void {
    connection.ws.close(code, reason);
  }

  async function send(connection: Connection, rows: AgentCommandRow[]): Promise<void> {
    if (connection.ws.readyState !== connection.ws.OPEN) return;
    const unsent = rows.filter((row) => connection.sent.get(row.id) !== row.task_token);
    for (const row of unsent) {
      connection.sent.set(row.id, row.task_token);
      endpoint.send(connection.ws, commandFrame(row));
    }
    await agents.commands.markDelivered(unsent.map((row) => row.id));
  }

  async function sendPending(connection: Connection): Promise<void> {
    let after: AgentCommandRow | undefined;
    while (connection.ws.readyState === connection.ws.OPEN) {
      const batch = await agents.commands.pendingFor(connection.identity.workstationId, after);
      await send(connection, batch);
      if (batch.length < PENDING_BATCH) return;
      after = batch[batch.length - 1];
    }
  }

  async function sendAnnounced(connection: Connection, commandId: string): Promise<void> {
    const row = await agents.commands.deliverable(connection.identity.workstationId, commandId);
    if (row) await send(connection, [row]);
  }

  /**
   * Closes the connection if its own credential no longer opens the channel. A revocation is announced per
   * workstation, and pairing again revokes the old credential: the desk's new connection must outlive that notice.
   */
  async function closedIfRevoked(connection: Connection): Promise<boolean> {
    if (await agents.authenticate(connection.credential)) return false;
    close(connection, AGENT_CLOSE.revoked, 'credential revoked');
    return true;
  }

  /** After the LISTEN connection came back: a revocation or a command announced meanwhile was missed. */
  async function catchUp(connection: Connection): Promise<void> {
    if (!(await closedIfRevoked(connection)) && connection.welcomed) await sendPending(connection);
  }

  async function welcome(connection: Connection, hello: Hello): Promise<void> {
    const { workstationId, hotelSlug } = connection.identity;
    const online = await agents.markOnline(workstationId, connection.connectionId, {
      agent_version: hello.agent_version,
      machine_name: hello.machine_name,
    });
    if (!online) {
      close(connection, AGENT_CLOSE.revoked, 'credential revoked');
      return;
    }
    if (connection.ws.readyState !== connection.ws.OPEN) return;
    connection.welcomed = true;
    const previous = byWorkstation.get(workstationId);
    if (previous && previous !== connection) close(previous, AGENT_CLOSE.replaced, 'replaced by a newer connection');
    byWorkstation.set(workstationId, connection);
    endpoint.send(
      connection.ws,
      JSON.stringify({
        type: 'welcome',
        protocol: AGENT_PROTOCOL_VERSION,
        workstation_id: workstationId,
        hotel_slug: hotelSlug,
        heartbeat_seconds: heartbeatMs / 1000,
        latest_release: agents.latestRelease(),
      }),
    );
    await sendPending(connection);
  }

  async function stillCurrent(connection: Connection): Promise<void> {
    if (await agents.touch(connection.identity.workstationId, connection.connectionId)) return;
    const valid = await agents.authenticate(connection.credential);
    if (valid) close(connection, AGENT_CLOSE.replaced, 'replaced by a newer connection');
    else close(connection, AGENT_CLOSE.revoked, 'credential revoked');
  }

  function onFrame(connection: Connection, data: RawData, isBinary: boolean): void {
    connection.lastFrameAt = Date.now();
    const frame = isBinary ? undefined : parseIncomingFrame(data.toString());
    if (!frame) {
      close(connection, AGENT_CLOSE.protocolError, 'not a protocol 1 frame');
      return;
    }
    if ('id' in frame) {
      if (!connection.welcomed) close(connection, AGENT_CLOSE.protocolError, 'hello expected first');
      else {
        const { id, ...outcome } = frame;
        connection.sent.delete(id);
        connection.replies = connection.replies
          .then(() => agents.commands.reply(connection.identity.workstationId, id, outcome))
          .then(() => undefined, logFailure(connection, 'agent reply not recorded'));
      }
      return;
    }
    if (frame.type === 'hello') {
      if (connection.welcomed || frame.protocol !== AGENT_PROTOCOL_VERSION) {
        close(connection, AGENT_CLOSE.protocolError, `protocol ${AGENT_PROTOCOL_VERSION} hello expected once`);
        return;
      }
      connection.helloReceived();
      void welcome(connection, frame).catch((error: unknown) => {
        logFailure(connection, 'agent welcome failed')(error);
        close(connection, 1011, 'try again');
      });
      return;
    }
    if (!connection.welcomed) close(connection, AGENT_CLOSE.protocolError, 'hello expected first');
    else void stillCurrent(connection).catch(logFailure(connection, 'agent heartbeat not recorded'));
  }

  function onConnection(ws: WebSocket, { identity, credential }: { identity: AgentIdentity; credential: string }) {
    const connection: Connection = {
      ws,
      identity,
      credential,
      connectionId: randomUUID(),
      welcomed: false,
      lastFrameAt: Date.now(),
      helloReceived: endpoint.closeAfter(ws, helloTimeoutMs, AGENT_CLOSE.protocolError, 'hello expected'),
      replies: Promise.resolve(),
      sent: new Map(),
    };
    connections.add(connection);
    ws.on('message', (data, isBinary) => onFrame(connection, data, isBinary));
    ws.on('error', () => ws.terminate());
    ws.once('close', () => {
      connections.delete(connection);
      if (byWorkstation.get(identity.workstationId) === connection) byWorkstation.delete(identity.workstationId);
      if (connection.welcomed) {
        connection.ended = agents
          .markOffline(identity.workstationId, connection.connectionId)
          .then(() => undefined, logFailure(connection, 'agent presence not ended'));
      }
    });
  }

  async function authorize(req: IncomingMessage) {
    const credential = credentialOf(req);
    const identity = credential && (await agents.authenticate(credential));
    if (!credential || !identity)
      return new UnauthorizedError('Недействительные учётные данные агента', 'invalid_agent_credential');
    return { identity, credential };
  }

  const each = (workstationId: string, act: (connection: Connection) => void) => {
    for (const connection of connections) if (connection.identity.workstationId === workstationId) act(connection);
  };

  for (const unsubscribe of [
    listener.subscribe(AGENT_COMMANDS_CHANNEL, {
      onNotification(payload) {
        const [workstationId, commandId] = payload.split(':');
        const connection = byWorkstation.get(workstationId);
        if (connection)
          void sendAnnounced(connection, commandId).catch(logFailure(connection, 'agent command not sent'));
      },
      onListening() {
        for (const connection of connections)
          void catchUp(connection).catch(logFailure(connection, 'agent catch-up failed'));
      },
    }),
    listener.subscribe(AGENT_REVOCATIONS_CHANNEL, {
      onNotification: (workstationId) =>
        each(workstationId, (connection) => {
          // A revocation is never left unenforced: a connection whose credential could not be checked is closed too.
          void closedIfRevoked(connection).catch((error: unknown) => {
            logFailure(connection, 'agent revocation check failed')(error);
            close(connection, AGENT_CLOSE.checkFailed, 'credential check failed');
          });
        }),
    }),
    listener.subscribe(AGENT_CONNECTIONS_CHANNEL, {
      onNotification(payload) {
        const [workstationId, connectionId] = payload.split(':');
        each(workstationId, (connection) => {
          if (connection.connectionId !== connectionId && connection.welcomed) {
            close(connection, AGENT_CLOSE.replaced, 'replaced by a newer connection');
          }
        });
      },
    }),
  ])
    endpoint.own(unsubscribe);

  endpoint.every(heartbeatMs / 2, () => {
    const silentSince = Date.now() - 2 * heartbeatMs;
    for (const connection of connections) {
      if (connection.welcomed && connection.lastFrameAt < silentSince)
        close(connection, AGENT_CLOSE.silent, 'silent too long');
    }
  });

  return {
    attach: endpoint.attach,
    connectionCount: () => byWorkstation.size,
    ready: endpoint.ready,
    close() {
      const open = [...connections];
      // Their presence ends here rather than at the next replica's welcome: staff see the desk go offline meanwhile.
      return endpoint.close(() => Promise.all(open.map((connection) => connection.ended ?? Promise.resolve())));
    },
  };
}
