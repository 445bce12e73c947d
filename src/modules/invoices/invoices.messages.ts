import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';

export const invoiceMessages = {
  notFound: 'Счёт на оплату не найден',
  folioNotFound: 'Счёт (фолио) не найден',
  requisitesMissing: (names: string[]) =>
    `Чтобы выставить счёт, заполните реквизиты отеля в настройках: ${names.join(', ')}`,
  lineNotOfFolio: 'Строка не из этого фолио',
  lineNotInvoiceable: 'Оплаты и возвраты в счёт не включаются: выберите начисления',
  lineInvoiced: 'Строка уже включена в другой действующий счёт',
  tooManyLines: (max: number) => `В счёт входит не больше ${max} строк: выберите их в line_ids`,
  lineOnInvoice: 'Строка включена в действующий счёт: сначала аннулируйте счёт кредит-нотой',
  paymentAtDesk:
    'Наличные и оплату картой примите на кассе (платёж брони с чеком по 54-ФЗ); по счёту принимается банковский перевод',
  paymentOfInvoice: 'Это оплата по счёту: удалить её из платежей брони нельзя',
  tooManyEmails: (max: number) => `Счёт уже отправляли ${max} раз: больше отправить нельзя`,
  storageDown: 'Хранилище файлов недоступно: повторите позже',
  nothingToInvoice: 'В фолио нет начислений, ещё не включённых в счёт',
  notPositive: 'Сумма счёта должна быть больше нуля',
  cancelled: 'Счёт аннулирован кредит-нотой',
  hasPayments: 'По счёту есть оплаты: аннулировать его нельзя',
  overpaid: (left: string) => `Оплата больше остатка по счёту (${left} ₽)`,
  emailSubject: (number: string, hotel: string) => `Счёт на оплату № ${number} — ${hotel}`,
  emailText: (number: string, hotel: string) =>
    `Здравствуйте!\n\nВо вложении счёт на оплату № ${number} от «${hotel}».\n\nС уважением, ${hotel}`,
};

export const invoiceErrors = {
  notFound: () => new NotFoundError(invoiceMessages.notFound),
  body: (field: string, message: string) => new ValidationError(message, [{ path: `body.${field}`, message }]),
  rule: (message: string, code: string, errors: string[] = [message]) =>
    new BusinessRuleError(message, errors, `invoice_${code}`),
  conflict: (message: string, code: string) => new ConflictError(message, `invoice_${code}`),
};
