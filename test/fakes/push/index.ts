/** A fake Web Push service (HTTPS, VAPID-checking, decrypting) for the push module's tests. */
export {
  startFakePushService,
  type BrowserSubscription,
  type FakePushService,
  type ReceivedPush,
  type Scripted,
} from './server';
export { selfSignedCertificate } from './certificate';
export { decryptPush, verifyVapid } from './web-push-crypto';
