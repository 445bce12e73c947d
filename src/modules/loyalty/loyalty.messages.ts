export const loyaltyMessages = {
  programmeOff: 'Программа лояльности в отеле выключена',
  guestNotFound: 'Гость не найден',
  bookingNotFound: 'Бронирование не найдено',
  noGuestProfile: 'У бронирования нет профиля основного гостя',
  bookingClosed: 'Баллы списываются только на действующее бронирование (не отменённое и не выехавшее)',
  notEnoughPoints: (balance: number) => `Недостаточно баллов: на счёте гостя ${balance}`,
  tiersInvalid: 'Уровни программы заданы неверно',
  tierAtZero: 'Нужен ровно один уровень с порогом 0',
  tiersUnique: 'Пороги уровней не должны повторяться',
  tiersTooMany: (max: number) => `Не больше ${max} уровней`,
  nightsWhole: 'При учёте по ночам порог уровня — целое число ночей',
  redemptionNote: (points: number) => `Оплата баллами: ${points}`,
};
