import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { MODULES } from '../../src/modules/registry';
import { buildAsyncApiDocument } from '../../src/platform/realtime/asyncapi';

/**
 * The AsyncAPI document of `/ws` is valid AsyncAPI 3.0 and lists every event a module declares (the declarations the
 * modules publish through), besides the hub's own messages. The realtime tests check every message they receive
 * against the same declarations (test/helpers/realtime.ts).
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const specs = require('@asyncapi/specs') as { schemas: Record<string, object> };

const events = MODULES.flatMap((module) => module.events ?? []);
const document = buildAsyncApiDocument(events, {
  title: 'Hotel PMS API: staff realtime',
  version: '0.1.0',
  serverUrl: 'http://localhost:3000',
});

it('is valid AsyncAPI 3.0', () => {
  // The AsyncAPI schema bundles its own copy of the draft-07 meta-schema: Ajv's must not be loaded beside it.
  const ajv = new Ajv({ allErrors: true, strict: false, meta: false, validateSchema: false });
  addFormats(ajv);
  const validate = ajv.compile(specs.schemas['3.0.0']);
  const valid = validate(document);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  // The schema does bite: an operation that neither sends nor receives is refused.
  const broken = { ...document, operations: { ...document.operations, receivePing: { action: 'poll' } } };
  expect(validate(broken)).toBe(false);
});

it("documents every module's events and the hub's messages", () => {
  const documented = Object.keys(document.channels.staff.messages).sort();
  expect(documented).toEqual([...events.map((event) => event.type), 'connected', 'resync', 'pong', 'ping'].sort());
  expect(documented).toEqual(
    expect.arrayContaining([
      'room_updated',
      'housekeeping_task_created',
      'housekeeping_updated',
      'housekeeping_done',
      'booking_created',
      'booking_updated',
      'notification:new',
    ]),
  );
});
