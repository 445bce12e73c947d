export type { ChannelIntakeService } from './channel-intake.service';
export type { IntakeChannel, IntakeChannels, IntakeMapping } from './channel-intake.types';
