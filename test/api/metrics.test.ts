import { randomUUID } from 'node:crypto';
import { as, registerHotel } from '../helpers/accounts';
import { createTestApp } from '../helpers/app';
import { connectStaff, startTestServer, type TestServer } from '../helpers/realtime';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  t.metrics.countRealtimeConnections(() => t.hub.connectionCount());
});
afterAll(() => t.close());

/** The value of one sample of the Prometheus text, e.g. `name{label="value"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts requests by route template, method and status class, with the pool, outbox and realtime gauges', async () => {
    const owner = await registerHotel(t);
    const missing = randomUUID();
    for (let i = 0; i < 3; i++)
      await t.http.get(`/api/hotels/${owner.slug}/bookings/${missing}`).set(as(owner.accessToken)).expect(404);
    const staff = await connectStaff(t.wsUrl, owner.accessToken);
    try {
      await staff.next((message) => message.type === 'connected');
      const response = await t.http.get('/metrics').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = response.text;

      const route = 'route="/api/hotels/:slug/bookings/:id"';
      const series = `hotel_pms_http_request_duration_seconds_count{method="GET",${route},status_class="4xx"}`;
      expect(sample(text, series)).toBeGreaterThanOrEqual(3);
      // Neither the hotel nor the booking reaches a label.
      expect(text).not.toContain(owner.slug);
      expect(text).not.toContain(missing);

      expect(sample(text, 'hotel_pms_db_pool_connections{state="used"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hotel_pms_db_pool_connections{state="free"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hotel_pms_db_pool_connections{state="max"}')).toBe(t.config.databasePoolMax);
      expect(sample(text, 'hotel_pms_db_pool_pending_acquires')).toBe(0);
      expect(sample(text, 'hotel_pms_outbox_pending_messages')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hotel_pms_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hotel_pms_realtime_connections')).toBeGreaterThanOrEqual(1);
      expect(text).toContain('hotel_pms_nodejs_eventloop_lag_seconds');
      expect(text).toContain('hotel_pms_process_resident_memory_bytes');
    } finally {
      await staff.close();
    }
  });

  it('labels a request no route took as unmatched', async () => {
    await t.http.get(`/no-such-page-${randomUUID()}`).expect(404);
    const { text } = await t.http.get('/metrics').expect(200);
    expect(
      sample(text, 'hotel_pms_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = createTestApp({ METRICS_TOKEN: token });
    try {
      await guarded.http.get('/metrics').expect(401);
      await guarded.http.get('/metrics').set('Authorization', 'Bearer not-the-token').expect(401);
      await guarded.http.get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
    } finally {
      await guarded.close();
    }
  });
});
