import { CHANNEL_INTAKE_REFUSED } from '../../../workflows/contracts/channel-intake';
import { defineModule } from '../../platform/modules';
import { erasedBy, scrubbed } from '../../platform/personal-data';
import { revisionsRepository } from './channel-intake.repository';
import { channelIntakeActivities } from './channel-intake.activities';
import { channelIntakeRoutes } from './channel-intake.routes';
import { channelIntakeFixtures } from './channel-intake.fixtures';
import { createChannelIntakeService, type ChannelIntakeDependencies } from './channel-intake.service';

/**
 * Booking intake from the channel manager (docs/decisions/channel-intake.md): revisions read from Channex's feed, on
 * its webhook and every 30 s, each applied once and in the channel's order through the bookings service, then
 * acknowledged; an OTA booking that finds no room kept for the staff, who are told urgently.
 */
export const channelIntakeModule = defineModule({
  name: 'channelIntake',
  uses: ['bookings', 'rooms', 'notifications', 'channels'],
  fixtures: channelIntakeFixtures,
  // The parsed revision (its guest's name, contacts and the OTA's notes): scrubbed with the guest's bookings, and in
  // the hotel's revisions tied to no booking of the guest (never placed) wherever a distinctive value stands.
  personalData: [
    erasedBy(
      'channel_revisions (revision of the guest’s bookings)',
      'channel_revisions',
      revisionsRepository.eraseGuests,
    ),
    scrubbed('channel_revisions', 'hotel', [{ name: 'revision', json: true }, { name: 'unplaced_detail' }]),
  ],
  create: ({ db, config }, deps: ChannelIntakeDependencies) => createChannelIntakeService(db, config, deps),
  routes: (intake) => channelIntakeRoutes(intake),
  activities: (intake) => channelIntakeActivities(intake),
  schedules: [{ scheduleId: 'channel-intake-sweep', workflowType: 'channelIntakeSweep', every: '1 minute' }],
  refusals: { type: CHANNEL_INTAKE_REFUSED },
});
