import { AppError, NotFoundError } from '../../platform/errors';

export const reviewMessages = {
  notFound: 'Отзыв не найден',
  optOutNotFound: 'Адрес в списке отказов не найден',
  linkNotFound: 'Ссылка на отзыв недействительна',
  linkUsed: 'По этой ссылке отзыв уже оставлен: второй отзыв о том же проживании не принимается',
  linkExpired: 'Срок действия ссылки на отзыв истёк',
  spanReversed: 'Дата «to» не может быть раньше даты «from»',
  newReviewTitle: 'Новый отзыв гостя',
  newReviewBody: (name: string, overall: number, comment: string) =>
    `${name}: ${overall} из 5${comment ? ` — ${comment.length > 300 ? `${comment.slice(0, 300)}…` : comment}` : ''}`,
};

/** A link past its lifetime: 410, the page tells the guest it can no longer be used. */
export class ReviewLinkExpired extends AppError {
  constructor() {
    super(410, 'review_link_expired', reviewMessages.linkExpired);
  }
}

/** No such link, or its hotel is closed (or a token of a shape no link has): one answer. */
export const linkNotFound = () => new NotFoundError(reviewMessages.linkNotFound, 'review_link_not_found');
