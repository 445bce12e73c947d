import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made at start-up with node's crypto alone (a P-256 key, the
 * X.509 v3 structure written in DER by hand), so the fake push service speaks HTTPS like the real ones.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...content: Buffer[]) => tlv(0x30, ...content);
const set = (...content: Buffer[]) => tlv(0x31, ...content);

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    for (let value = part >> 7; value > 0; value >>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const utcTime = (date: Date) =>
  tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`, 'ascii'));

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

export interface SelfSignedCertificate {
  key: string;
  cert: string;
}

export function selfSignedCertificate(commonName = 'fake-push.test'): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const serial = randomBytes(16);
  // A positive INTEGER in its shortest form (DER): no high bit, and no leading zero byte, which OpenSSL refuses.
  serial[0] = serial[0] & 0x7f || 0x01;
  const now = Date.now();
  const subjectAltName = sequence(tlv(0x82, Buffer.from('localhost', 'ascii')), tlv(0x87, Buffer.from([127, 0, 0, 1])));
  const extensions = tlv(
    0xa3,
    sequence(
      sequence(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, sequence(tlv(0x01, Buffer.from([0xff]))))),
      sequence(oid('2.5.29.17'), tlv(0x04, subjectAltName)),
    ),
  );
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ecdsaWithSha256,
    name(commonName),
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 7 * 24 * 3_600_000))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = new X509Certificate(der).toString();
  const key = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  return { key, cert };
}
