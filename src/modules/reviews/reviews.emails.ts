import { escapeHtml, type MailMessage } from '../../platform/mail';
import type { GuestLanguage } from '../hotels';

/** The review invitation, in the language the hotel writes to its guests in (Russian unless it chose English). */

export interface InvitationFacts {
  to: string;
  hotelName: string;
  firstName: string;
  stay: { stay_from: string; stay_to: string };
  reviewUrl: string;
  optOutUrl: string;
  expiresAt: Date;
  timeZone: string;
  language: GuestLanguage;
}

interface Wording {
  locale: string;
  subject: (hotel: string) => string;
  greeting: (name: string) => string;
  lead: (hotel: string, from: string, to: string) => string;
  expires: (day: string) => string;
  optOut: string;
}

const WORDING: Record<GuestLanguage, Wording> = {
  ru: {
    locale: 'ru-RU',
    subject: (hotel) => `Как прошло ваше проживание? — ${hotel}`,
    greeting: (name) => `Здравствуйте, ${name}!`,
    lead: (hotel, from, to) =>
      `Спасибо, что выбрали отель «${hotel}» (${from} — ${to}). Оцените, пожалуйста, ваше проживание: ` +
      'это займёт минуту и поможет нам стать лучше.',
    expires: (day) => `Ссылка действует до ${day} и только для одного отзыва.`,
    optOut: 'Не хотите получать такие письма от отеля? Откажитесь по ссылке:',
  },
  en: {
    locale: 'en-GB',
    subject: (hotel) => `How was your stay? — ${hotel}`,
    greeting: (name) => `Hello, ${name}!`,
    lead: (hotel, from, to) =>
      `Thank you for staying at ${hotel} (${from} — ${to}). Please rate your stay: it takes a minute and helps us ` +
      'get better.',
    expires: (day) => `The link works until ${day}, for one review.`,
    optOut: 'Would you rather not get such e-mails from the hotel? Opt out here:',
  },
};

export function invitationEmail(facts: InvitationFacts): MailMessage {
  const wording = WORDING[facts.language];
  const day = new Intl.DateTimeFormat(wording.locale, { dateStyle: 'long', timeZone: 'UTC' });
  const date = (value: string) => day.format(new Date(`${value}T00:00:00Z`));
  const paragraphs = [
    wording.greeting(facts.firstName),
    wording.lead(facts.hotelName, date(facts.stay.stay_from), date(facts.stay.stay_to)),
  ];
  const lastDay = new Intl.DateTimeFormat(wording.locale, { dateStyle: 'long', timeZone: facts.timeZone });
  const expires = wording.expires(lastDay.format(facts.expiresAt));
  const html = [
    ...paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(facts.reviewUrl)}">${escapeHtml(facts.reviewUrl)}</a></p>`,
    `<p>${escapeHtml(expires)}</p>`,
    `<p><small>${escapeHtml(wording.optOut)} <a href="${escapeHtml(facts.optOutUrl)}">${escapeHtml(facts.optOutUrl)}</a></small></p>`,
  ];
  return {
    to: facts.to,
    subject: wording.subject(facts.hotelName),
    text: [...paragraphs, '', facts.reviewUrl, '', expires, '', wording.optOut, facts.optOutUrl].join('\n'),
    html: html.join(''),
  };
}
