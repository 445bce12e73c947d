import Joi from 'joi';
import { createSchemaConverter, type JsonSchema } from '../http/json-schema';
import type { HotelEventKind } from './events';
import { REALTIME_PATH } from './staff-hub';

/** Payload schemas are written in the OpenAPI dialect the HTTP document uses (one converter for both). */
const SCHEMA_FORMAT = 'application/vnd.oai.openapi;version=3.0.0';

interface MessageSpec {
  name: string;
  summary: string;
  /** The whole message as it travels. */
  envelope: Joi.ObjectSchema;
}

/** Every server message is `{ id, type, payload }`: `id` is the hotel's event number, the client's replay cursor. */
function serverMessage(type: string, summary: string, payload: Joi.ObjectSchema): MessageSpec {
  return {
    name: type,
    summary,
    envelope: Joi.object({
      id: Joi.number().integer().min(0).required(),
      type: Joi.string().valid(type).required(),
      payload: payload.required(),
    }),
  };
}

/** What the hub itself says, besides the hotels' events. */
const HUB_MESSAGES: MessageSpec[] = [
  serverMessage(
    'connected',
    'First message of every connection: `id` is the position the client starts from (keep it, send it back as ' +
      '`since` when reconnecting).',
    Joi.object({ hotel_id: Joi.string().uuid().required(), user_id: Joi.string().uuid().required() }),
  ),
  serverMessage(
    'resync',
    'The missed events cannot be replayed (too old, too many, or an unknown position): reload the data, then go on ' +
      'from `id`.',
    Joi.object({ reason: Joi.string().valid('unknown_position', 'too_old', 'too_far_behind').required() }),
  ),
  {
    name: 'pong',
    summary: "The answer to the client's `ping`, with the last event id sent.",
    envelope: Joi.object({ type: Joi.string().valid('pong').required(), id: Joi.number().integer().min(0).required() }),
  },
];

const PING: MessageSpec = {
  name: 'ping',
  summary: 'Application-level liveness check (the server also pings at the WebSocket level every 30 s).',
  envelope: Joi.object({ type: Joi.string().valid('ping').required() }),
};

const HANDSHAKE_QUERY = Joi.object({
  token: Joi.string().description('The access token (or send it as the subprotocol pair `bearer`, `<token>`).'),
  hotel: Joi.string().description("The hotel's slug: required for super_admin, optional for its own staff."),
  since: Joi.string()
    .pattern(/^\d{1,15}$/)
    .description('The id of the last message kept, when reconnecting: the missed events are replayed first.'),
});

/** Every message the server sends on `/ws`, by type, as it travels (the hub's own and the modules' events). */
export function realtimeMessageSchemas(events: readonly HotelEventKind<never>[]): Map<string, Joi.ObjectSchema> {
  return new Map(serverMessages(events).map((message) => [message.name, message.envelope]));
}

function serverMessages(events: readonly HotelEventKind<never>[]): MessageSpec[] {
  return [...HUB_MESSAGES, ...events.map((event) => serverMessage(event.type, event.summary, event.payload))];
}

/**
 * The AsyncAPI 3 document of the staff realtime channel, generated from the event kinds the modules declare (the very
 * declarations they publish through) and the hub's own messages.
 */
export function buildAsyncApiDocument(
  events: readonly HotelEventKind<never>[],
  info: { title: string; version: string; serverUrl: string },
) {
  const converter = createSchemaConverter();
  const schema = (joi: Joi.Schema, answer: boolean) => ({
    schemaFormat: SCHEMA_FORMAT,
    schema: converter.toSchema(joi, { answer }) as JsonSchema,
  });
  const sent = [...HUB_MESSAGES, ...events.map((event) => serverMessage(event.type, event.summary, event.payload))];
  const messages = Object.fromEntries(
    [...sent, PING].map((message) => [
      message.name,
      { name: message.name, summary: message.summary, payload: schema(message.envelope, message !== PING) },
    ]),
  );
  const ref = (name: string) => ({ $ref: `#/channels/staff/messages/${name}` });
  const server = new URL(info.serverUrl);
  return {
    asyncapi: '3.0.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        "A hotel's staff realtime channel: every committed change of the hotel's rooms, tasks, bookings and " +
        'notifications, in order, each once. Connect with a valid access token; the connection closes with 4001 ' +
        'when the token expires, 4003 when the account loses its access, 1013 when the server asks for a ' +
        'reconnection, 1001 when it shuts down.',
    },
    servers: {
      api: {
        host: server.host,
        protocol: server.protocol === 'https:' ? 'wss' : 'ws',
        description: 'The API server itself',
      },
    },
    channels: {
      staff: {
        address: REALTIME_PATH,
        messages,
        bindings: { ws: { method: 'GET', query: converter.toSchema(HANDSHAKE_QUERY) } },
      },
    },
    operations: {
      sendHotelEvents: {
        action: 'send',
        channel: { $ref: '#/channels/staff' },
        summary: "The hotel's events and the hub's messages, to each connected member of its staff.",
        messages: sent.map((message) => ref(message.name)),
      },
      receivePing: {
        action: 'receive',
        channel: { $ref: '#/channels/staff' },
        summary: 'A client may ping; it is answered with `pong`.',
        messages: [ref(PING.name)],
      },
    },
    components: { schemas: converter.components() },
  };
}
