import type { AuthConfig } from './auth.env';
import type { Db } from '../../platform/db/knex';
import { sendClaimed, type ClaimedSend } from '../../platform/db/mail-claims';
import { escapeHtml, type MailMessage, type Mailer } from '../../platform/mail';
import type { AccountEmailPurpose } from '../../../workflows/contracts/accounts';
import type { HotelsService } from '../hotels';
import type { User, UsersService } from '../users';

function confirmationEmail(user: User, hotelName: string, link: string): MailMessage {
  return {
    to: user.email,
    subject: `Подтвердите email — ${hotelName}`,
    text: `Здравствуйте, ${user.name}!\n\nЧтобы завершить регистрацию отеля «${hotelName}», подтвердите адрес электронной почты:\n${link}\n\nСсылка действительна 24 часа. Если вы не регистрировались, просто проигнорируйте это письмо.`,
    html: `<p>Здравствуйте, ${escapeHtml(user.name)}!</p><p>Чтобы завершить регистрацию отеля «${escapeHtml(hotelName)}», подтвердите адрес электронной почты:</p><p><a href="${escapeHtml(link)}">Подтвердить email</a></p><p>Ссылка действительна 24 часа. Если вы не регистрировались, просто проигнорируйте это письмо.</p>`,
  };
}

function resetEmail(user: User, link: string): MailMessage {
  return {
    to: user.email,
    subject: 'Сброс пароля',
    text: `Здравствуйте, ${user.name}!\n\nЧтобы задать новый пароль, перейдите по ссылке:\n${link}\n\nСсылка действительна 1 час. Если вы не запрашивали сброс, проигнорируйте это письмо: пароль останется прежним.`,
    html: `<p>Здравствуйте, ${escapeHtml(user.name)}!</p><p>Чтобы задать новый пароль, перейдите по ссылке:</p><p><a href="${escapeHtml(link)}">Задать новый пароль</a></p><p>Ссылка действительна 1 час. Если вы не запрашивали сброс, проигнорируйте это письмо: пароль останется прежним.</p>`,
  };
}

/** The link still to be sent for this purpose, or undefined when there is nothing left to send. */
function pendingLink(user: User, purpose: AccountEmailPurpose, config: AuthConfig): string | undefined {
  if (purpose === 'confirmation') {
    if (user.email_confirmed || !user.confirmation_token) return undefined;
    return `${config.baseUrl}/api/auth/confirm-email?token=${user.confirmation_token}`;
  }
  if (!user.reset_token || !user.reset_token_expires || user.reset_token_expires.getTime() < Date.now())
    return undefined;
  return `${config.appUrl}/reset-password?token=${user.reset_token}`;
}

export function createAccountEmails(
  db: Db,
  config: AuthConfig,
  mailer: Mailer,
  { users, hotels }: { users: Pick<UsersService, 'findById'>; hotels: Pick<HotelsService, 'find'> },
) {
  return {
    /**
     * Sends the current link for the purpose, once under `key` (the e-mail's workflow). A link already used or
     * superseded is not sent: the e-mail always carries the token that is valid now, so a retried or late delivery
     * cannot hand out a stale one.
     */
    async sendAccountEmail(
      purpose: AccountEmailPurpose,
      userId: string,
      key: string,
    ): Promise<ClaimedSend | 'nothing_to_send'> {
      const user = await users.findById(userId);
      const link = user && pendingLink(user, purpose, config);
      if (!user || !link) return 'nothing_to_send';
      const hotel = user.hotel_id ? await hotels.find(user.hotel_id) : undefined;
      const message =
        purpose === 'confirmation' ? confirmationEmail(user, hotel?.name ?? '', link) : resetEmail(user, link);
      return sendClaimed(db, `account-email:${key}`, () => mailer.send(message), 'send');
    },
  };
}
