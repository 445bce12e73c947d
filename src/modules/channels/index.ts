export type { ChannelsService } from './channels.service';
export { signalChannelSync } from './channels.service';
export { reencryptChannelKeys } from './channels.rotation';
export { categoryOfRoomType, tariffOfRatePlan } from './channels.lookups';
export { ChannelError } from './channels.manager';
export { fromChannel } from './channels.errors';
export { REVISION_KINDS, channelMicros } from './channels.revisions';
export type { ChannelBookingRevisions, ChannelRevision, RevisionKind, RevisionRoom } from './channels.revisions';
export type {
  AvailabilityValue,
  ChannelListing,
  ChannelManager,
  RateValues,
  RestrictionValue,
} from './channels.manager';
export type { ChannelCredentials } from './channels.credentials';
export type { ChannelMapping, ChannelProvider, Connection, ConnectionRow } from './channels.types';
