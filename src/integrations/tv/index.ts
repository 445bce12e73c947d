export { createTvClient, type TvClient, type TvClientOptions } from './client';
export {
  buildRequest,
  interpretResponse,
  pushBody,
  tvUrl,
  type TvEvent,
  type TvHttpRequest,
  type TvOutcome,
  type TvPushBody,
  type TvStay,
} from './wire';
