export const pushMessages = {
  notConfigured: 'Push-уведомления не настроены на сервере',
  endpointHttps: 'Адрес подписки (endpoint) должен начинаться с https://',
  badP256dh: 'Ключ p256dh подписки неверен: ожидается открытый ключ P-256 (65 байт, base64url)',
  badAuth: 'Ключ auth подписки неверен: ожидается 16 байт в base64url',
  subscriptionGone: 'Подписки больше нет',
  notificationGone: 'Уведомления больше нет или пользователь не среди его получателей',
  noVapid: 'Ключи VAPID не заданы: push выключен',
  rateLimited: (seconds: number) => `Сервис push просит подождать (${seconds} с)`,
  refused: (status: number) => `Сервис push отказал (HTTP ${status})`,
  failed: (detail: string) => `Сервис push не ответил как нужно: ${detail}`,
};
