import { buildRequest, type TvStay } from '../../src/integrations/tv';
import { stayReference } from '../../src/modules/tv/tv.push';
import { startFakeTv, type FakeTv } from '../fakes/tv';

let fake: FakeTv;
beforeAll(async () => {
  fake = await startFakeTv();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const stay: TvStay = {
  room: '101',
  firstName: 'Пётр',
  lastName: 'Иванов',
  language: 'ru',
  arrival: new Date('2027-03-10T11:00:00.000Z'),
  departure: new Date('2027-03-12T09:00:00.000Z'),
  reference: stayReference('0b8a3c1e-9f7d-4c2b-8a6e-5d4c3b2a1f0e'),
};

/** Our push as the adapter builds it, with the body's fields and the headers changed as given. */
async function push(body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const request = buildRequest(fake.url, 'check_in', stay);
  const response = await fetch(request.url, {
    method: request.method,
    headers: { ...request.headers, ...headers },
    body: JSON.stringify({ ...(JSON.parse(request.body) as Record<string, unknown>), ...body }),
  });
  return { status: response.status, body: (await response.json()) as { ok?: boolean; error?: string } };
}

describe('the fake TV system', () => {
  it('accepts our push as the adapter builds it, and a test check-in reference', async () => {
    expect(await push()).toEqual({ status: 200, body: { ok: true } });
    expect((await push({ reference: 'test-2c1f7a52-3d5e-4b8f-9a6c-1e2d3f4a5b6c' })).status).toBe(200);
    expect(fake.accepted()).toHaveLength(2);
  });

  it.each([
    ['a room that is a number', { room: 101 }],
    ['an empty room', { room: '' }],
    ['a guest that is a string', { guest: 'Пётр Иванов' }],
    ['a guest without a last name', { guest: { first_name: 'Пётр' } }],
    ['a language that is not ISO 639-1', { language: 'russian' }],
    ['an arrival without a zone', { arrival: '2027-03-10T11:00:00' }],
    ['an arrival as epoch milliseconds', { arrival: 1804676400000 }],
    ['an arrival that is no date', { arrival: '2027-13-45T11:00:00.000Z' }],
    ['a departure before the arrival', { departure: '2027-03-09T09:00:00.000Z' }],
    ['a reference that is the booking id', { reference: '0b8a3c1e-9f7d-4c2b-8a6e-5d4c3b2a1f0e' }],
    ['a reference of upper-case hex', { reference: stay.reference.toUpperCase() }],
    ['no reference', { reference: undefined }],
  ])('refuses %s (400)', async (_what, change) => {
    const refused = await push(change);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual(expect.any(String));
    expect(fake.accepted()).toHaveLength(0);
  });

  it.each([
    ['a body not sent as JSON', { 'content-type': 'text/plain' }, 415],
    ['an Accept without JSON', { accept: 'text/html' }, 406],
    ['another User-Agent', { 'user-agent': 'curl/8.0' }, 400],
  ])('refuses %s', async (_what, headers, status) => {
    expect((await push({}, headers)).status).toBe(status);
    expect(fake.accepted()).toHaveLength(0);
  });
});
