import { issueSecret, secretMatches } from '../../src/platform/issued-secrets';

describe('issued secrets', () => {
  it('are 256 random bits in hex, kept as a digest with a hint, and match only themselves', () => {
    const issued = issueSecret();
    expect(issued.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.sha256).not.toBe(issued.secret);
    expect(issued.hint).toBe(`…${issued.secret.slice(-4)}`);
    expect(issueSecret().secret).not.toBe(issued.secret);
    expect(secretMatches(issued.secret, issued.sha256)).toBe(true);
    expect(secretMatches(issueSecret().secret, issued.sha256)).toBe(false);
  });

  it('match nothing without a secret on either side', () => {
    const { secret, sha256 } = issueSecret();
    expect(secretMatches(secret, null)).toBe(false);
    expect(secretMatches(undefined, sha256)).toBe(false);
    expect(secretMatches('', sha256)).toBe(false);
    expect(secretMatches(secret, 'not-a-digest')).toBe(false);
  });
});
