import type { StaffConfig } from './staff.env';
import type { Db } from '../../platform/db/knex';
import { sendClaimed, type ClaimedSend } from '../../platform/db/mail-claims';
import { escapeHtml, type Mailer } from '../../platform/mail';
import type { HotelsService } from '../hotels';
import type { UsersService } from '../users';

const dateFormat = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** The invitation workflow's steps: the e-mail, and recording that nobody accepted it in time. */
export function createStaffInvitations(
  db: Db,
  config: StaffConfig,
  mailer: Mailer,
  {
    users,
    hotels,
  }: { users: Pick<UsersService, 'findById' | 'expireInvitation'>; hotels: Pick<HotelsService, 'find'> },
) {
  return {
    /** The invitation's e-mail, once under `key` (its workflow run). */
    async sendInvitationEmail(userId: string, key: string): Promise<ClaimedSend | 'nothing_to_send'> {
      const user = await users.findById(userId);
      if (!user?.invite_token || user.invitation_status !== 'pending' || !user.invite_expires) return 'nothing_to_send';
      const hotel = user.hotel_id ? await hotels.find(user.hotel_id) : undefined;
      const hotelName = hotel?.name ?? '';
      const link = `${config.appUrl}/accept-invite?token=${user.invite_token}`;
      const validUntil = `${dateFormat.format(user.invite_expires)} UTC`;
      return sendClaimed(
        db,
        `staff-invitation:${key}`,
        () =>
          mailer.send({
            to: user.email,
            subject: `Приглашение в команду отеля «${hotelName}»`,
            text: `Здравствуйте, ${user.name}!\n\nВас пригласили в команду отеля «${hotelName}». Чтобы принять приглашение и задать пароль, перейдите по ссылке:\n${link}\n\nСсылка действительна до ${validUntil}.`,
            html: `<p>Здравствуйте, ${escapeHtml(user.name)}!</p><p>Вас пригласили в команду отеля «${escapeHtml(hotelName)}». Чтобы принять приглашение и задать пароль, перейдите по ссылке:</p><p><a href="${escapeHtml(link)}">Принять приглашение</a></p><p>Ссылка действительна до ${validUntil}.</p>`,
          }),
        'send',
      );
    },

    async expireInvitation(userId: string): Promise<boolean> {
      return users.expireInvitation(userId);
    },
  };
}
