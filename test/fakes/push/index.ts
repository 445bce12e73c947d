/** A fake Web Push service (HTTPS, VAPID-checking, decrypting) for the push tests, and its inbox page for the dev stack. */
export {
  startFakePushService,
  type BrowserSubscription,
  type FakePushService,
  type FakePushServiceOptions,
  type IssuedSubscription,
  type PushAttempt,
  type ReceivedPush,
  type Scripted,
} from './server';
export { selfSignedCertificate } from './certificate';
export { decryptPush, verifyVapid } from './web-push-crypto';
export { startPushInbox, inboxPushes, type InboxPush, type PushInbox } from './inbox';
