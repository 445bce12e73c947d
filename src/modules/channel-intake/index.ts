export type { ChannelIntakeService } from './channel-intake.service';
export type { ChannelRevision, IntakeChannel, IntakeChannels, IntakeMapping } from './channel-intake.types';
