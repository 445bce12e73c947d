/** What staff read when the chat refuses something (Russian, as the rest of the interface). */
export const chatMessages = {
  roomNotFound: 'Чат не найден',
  messageNotFound: 'Сообщение не найдено',
  notYourMessage: 'Изменить можно только своё сообщение',
  mayNotDelete: 'Удалить можно только своё сообщение (или администратору отеля)',
  readOnlyRoom: 'В этот чат пишет только администратор отеля; системные сообщения отправляются через notify',
  mayNotManage: 'Управлять участниками чата могут его создатель, управляющий и администратор отеля',
  directFixed: 'В личном чате всегда два участника: их нельзя менять',
  directPair: 'Личный чат — это вы и ещё один сотрудник этого отеля',
  groupNeedsName: 'Укажите название группового чата',
  notificationsFixed: 'Чат уведомлений нельзя изменить или удалить',
  unknownMembers: 'Участниками могут быть только активные сотрудники этого отеля',
  emptyMessage: 'Сообщение должно содержать текст или вложение',
  foreignAttachment: 'Вложение должно быть загружено этим отелем через /api/upload?folder=chat',
  deletedMessage: 'Сообщение удалено',
  notAMember: 'Этот сотрудник не участник чата',
} as const;
