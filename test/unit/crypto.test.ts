import { decryptSecret, encryptSecret } from '../../src/platform/crypto';

const oldKey = Buffer.alloc(32, 1);
const newKey = Buffer.alloc(32, 2);

describe('encryptSecret / decryptSecret', () => {
  it('round-trips and never repeats a ciphertext', () => {
    const keys = { keys: { k1: oldKey }, currentKeyId: 'k1' };
    const a = encryptSecret('паспорт 4510 123456', keys);
    const b = encryptSecret('паспорт 4510 123456', keys);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, keys)).toBe('паспорт 4510 123456');
  });

  it('reads values written under an older key after the current key rotates', () => {
    const before = encryptSecret('secret', { keys: { k1: oldKey }, currentKeyId: 'k1' });
    const rotated = { keys: { k1: oldKey, k2: newKey }, currentKeyId: 'k2' };
    expect(decryptSecret(before, rotated)).toBe('secret');
    expect(encryptSecret('secret', rotated).split('.')[1]).toBe('k2');
  });

  it('refuses tampered ciphertexts and unknown keys', () => {
    const keys = { keys: { k1: oldKey }, currentKeyId: 'k1' };
    const parts = encryptSecret('secret', keys).split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecret(parts.join('.'), keys)).toThrow();
    expect(() => decryptSecret(encryptSecret('x', keys), { keys: { k9: newKey }, currentKeyId: 'k9' })).toThrow(
      /unknown key/,
    );
  });
});
