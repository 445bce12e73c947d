import { Writable } from 'node:stream';
import { createLogger, loggedRequest, redactUrl } from '../../src/platform/logger';

/** Secrets some callers can only put in a URL never reach the request log; the rest of the URL does, as it came. */

describe('redactUrl', () => {
  it("hides a review link's token in the path, whatever follows it and in any case", () => {
    expect(redactUrl(`/api/review-links/${'a'.repeat(64)}`)).toBe('/api/review-links/[redacted]');
    expect(redactUrl('/api/review-links/abc/review')).toBe('/api/review-links/[redacted]/review');
    expect(redactUrl('/API/Review-Links/abc/opt-out?x=1')).toBe('/API/Review-Links/[redacted]/opt-out?x=1');
  });

  it('hides the values of token, access_token and code in the query, however the name is spelt', () => {
    expect(redactUrl('/tvpms?token=tv-secret-token')).toBe('/tvpms?token=[redacted]');
    expect(redactUrl('/cb?a=1&access_token=t&code=c&b=2')).toBe('/cb?a=1&access_token=[redacted]&code=[redacted]&b=2');
    expect(redactUrl('/tvpms?tok%65n=s1&TOKEN=s2&token[]=s3&token')).toBe(
      '/tvpms?tok%65n=[redacted]&TOKEN=[redacted]&token[]=[redacted]&token=[redacted]',
    );
    expect(redactUrl('https://app.test/review?token=abc')).toBe('https://app.test/review?token=[redacted]');
  });

  it("hides a guest's contact and name in the query: the widget's lookup, the staff's guest search", () => {
    expect(redactUrl('/api/widget/grand/guest-lookup?phone=%2B79160000001&email=a%40b.test')).toBe(
      '/api/widget/grand/guest-lookup?phone=[redacted]&email=[redacted]',
    );
    expect(redactUrl('/api/hotels/grand/guests?q=Скрытова&limit=20')).toBe(
      '/api/hotels/grand/guests?q=[redacted]&limit=20',
    );
    expect(redactUrl('/x?search=a&name=b&guest_phone=c')).toBe(
      '/x?search=[redacted]&name=[redacted]&guest_phone=[redacted]',
    );
  });

  it('leaves every other URL as it came, a malformed escape included', () => {
    for (const url of [
      '/api/auth/me',
      '/api/hotels/grand/bookings?limit=20&cursor=abc&tokens=1&status=confirmed',
      '/api/review-links',
      '/x?%E0%A4%A=1&a=%',
      '/',
    ])
      expect(redactUrl(url)).toBe(url);
  });
});

describe('loggedRequest', () => {
  it('redacts the URL and the Referer and drops the query and params that would repeat them', () => {
    const headers = { host: 'api.test', referer: 'https://hotel.test/review?token=abc', 'user-agent': 'ua' };
    expect(
      loggedRequest({
        url: '/api/review-links/abc?token=abc',
        query: { token: 'abc' },
        params: { token: 'abc' },
        headers,
      }),
    ).toEqual({
      url: '/api/review-links/[redacted]?token=[redacted]',
      headers: { ...headers, referer: 'https://hotel.test/review?token=[redacted]' },
    });
  });

  it('keeps a request without a URL secret as it came', () => {
    const headers = { host: 'api.test' };
    expect(loggedRequest({ url: '/api/auth/me', query: {}, headers })).toEqual({ url: '/api/auth/me', headers });
  });
});

describe('the logger', () => {
  it("never writes a guest's name, contacts, birth date or documents, at the top or nested (retention)", () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', {
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const guest = {
      last_name: 'Скрытова',
      first_name: 'Алла',
      middle_name: 'Петровна',
      phone: '+79160000001',
      email: 'hidden@example.test',
      birth_date: '1970-01-02',
      passport_number: '123456',
    };
    const { passport_number: _documents, ...person } = guest;
    const booking = Object.fromEntries(Object.entries(person).map(([key, value]) => [`guest_${key}`, value]));
    logger.info({ ...guest, guest, booking, ...booking, body: booking }, 'a guest');
    // Deeper than `*.field` reaches: an error's details, an event's payload, a list of guests.
    logger.info({ err: { details: { booking: { guest } } }, event: { payload: { guests: [guest, booking] } } }, 'deep');
    const text = lines.join('');
    expect(text).toContain('[redacted]');
    for (const value of Object.values(guest)) expect(text).not.toContain(value);
  });
});
