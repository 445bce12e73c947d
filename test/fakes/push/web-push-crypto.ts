import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';

/** The receiving side of Web Push, as a browser does it: the VAPID check (RFC 8292) and the decryption (RFC 8291). */

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** A P-256 public key given as its raw uncompressed point (65 bytes). */
function publicKeyOfPoint(point: Buffer) {
  if (point.length !== 65 || point[0] !== 4) throw new Error('not an uncompressed P-256 point');
  return createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  });
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  /** The application server's public key (`k=`), base64url. */
  publicKey: string;
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 JWT signed by that key, for this push service's
 * origin, not expired and at most 24 hours ahead, with a `mailto:` or `https:` contact. Throws what is wrong.
 */
export function verifyVapid(header: string | undefined, origin: string, nowSeconds = Date.now() / 1000): VapidClaims {
  const match = /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`Authorization is not "vapid t=..., k=...": ${header ?? '(none)'}`);
  const [, jwt, k] = match;
  const [headerPart, claimsPart, signaturePart] = jwt.split('.');
  if (!signaturePart) throw new Error('the JWT has not three parts');
  const jwtHeader = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as { alg?: string };
  if (jwtHeader.alg !== 'ES256') throw new Error(`JWT alg ${jwtHeader.alg}, not ES256`);
  const signed = verify(
    'sha256',
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKeyOfPoint(Buffer.from(k, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as Omit<VapidClaims, 'publicKey'>;
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, not ${origin}`);
  if (!(claims.exp > nowSeconds && claims.exp <= nowSeconds + 24 * 3600 + 60)) throw new Error('exp out of range');
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub} is not mailto: or https:`);
  return { ...claims, publicKey: k };
}

/** A browser's side of one subscription: its ECDH key pair and authentication secret. */
export interface ReceiverKeys {
  ecdh: ECDH;
  authSecret: Buffer;
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/**
 * Decrypts an `aes128gcm` push body (RFC 8188 framing, RFC 8291 keys): salt (16) | record size (4) | key id length
 * (1) | key id = the sender's ephemeral public key (65) | one record. Throws when anything does not add up.
 */
export function decryptPush(body: Buffer, receiver: ReceiverKeys): Buffer {
  if (body.length < 21 + 65 + 17) throw new Error('body too short for aes128gcm');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  if (idLength !== 65) throw new Error(`key id of ${idLength} bytes, not a P-256 point`);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error('more than one record');
  const ecdhSecret = receiver.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.ecdh.getPublicKey(), senderPublic]);
  const ikm = hkdf(receiver.authSecret, ecdhSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

export function newReceiverKeys(): ReceiverKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, authSecret: randomBytes(16) };
}

/** The receiving keys of a subscription kept from an earlier run: the ECDH private key and the auth secret. */
export function restoreReceiverKeys(privateKey: string, authSecret: string): ReceiverKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return { ecdh, authSecret: Buffer.from(authSecret, 'base64url') };
}
