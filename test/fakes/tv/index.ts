/** A fake hotel TV system (receives pushes in our wire format) and the poller it would run against `/tvpms`. */
export { startFakeTv, type FakeTv, type ReceivedPush, type TvMode, type TvPushKind } from './server';
export { pollTvpms, type PollAnswer } from './poller';
