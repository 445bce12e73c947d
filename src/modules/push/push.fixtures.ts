import type { ModuleFixtures } from '../../platform/fixtures';

/** A browser's push keys: any P-256 point (the test VAPID public key is one) and a 16-byte secret. */
const GATE_PUSH_KEYS = {
  p256dh: 'BHQZq8r8VKyNt2Fyb3tFADVImRn8psYqSyye3-gDqyOyB7AX8VhP3UAt_K_ROwwZ5GTbzZW1H8mm40f3rX-L6rc',
  auth: 'AAAAAAAAAAAAAAAAAAAAAA',
};
const gatePushEndpoint = (n: number) => `https://push.example.test/gate-${n}`;

/** No records to seed: a subscription's endpoint is the browser's push service, not a record of the hotel. */
export const pushFixtures: ModuleFixtures = {
  records: {},
  requests: {
    body: {
      'POST /api/hotels/:slug/push/subscribe': {
        base: (_r, n) => ({ endpoint: gatePushEndpoint(n), keys: GATE_PUSH_KEYS }),
      },
      'POST /api/hotels/:slug/push/unsubscribe': { base: (_r, n) => ({ endpoint: gatePushEndpoint(n) }) },
      'DELETE /api/hotels/:slug/push/unsubscribe': { base: (_r, n) => ({ endpoint: gatePushEndpoint(n) }) },
    },
  },
};
