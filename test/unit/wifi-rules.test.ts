import { foldName, normalizeMac, sameSurname, sessionUntil } from '../../src/modules/wifi/wifi.rules';

describe('foldName: one Latin form for a surname in Cyrillic and in its usual Latin spellings', () => {
  it.each([
    ['Иванов', ['Ivanov', 'IVANOV', 'ivanov ', ' iVaNoV', 'ИВАНОВ']],
    ['Фёдоров', ['Fedorov', 'Fyodorov', 'Федоров', 'Fiodorov']],
    ['Соловьёв', ['Solovev', 'Solovyov', 'Solovyev', 'Solovjov', "Solov'ev"]],
    ['Йорданов', ['Iordanov', 'Yordanov', 'Jordanov']],
    ['Хрущёв', ['Khrushchev', 'Hrushchev', 'Khrushchyov', 'Hrushchyov']],
    ['Цой', ['Tsoi', 'Tsoy', 'Tcoi', 'Tzoi', 'Coi']],
    ['Чайковский', ['Chaikovskii', 'Tchaikovsky', 'Chaykovskiy', 'Chaikovsky']],
    ['Шишкин', ['Shishkin', 'SHISHKIN']],
    ['Щукин', ['Shchukin', 'Schukin']],
    ['Юрьев', ['Iurev', 'Yuryev', 'Yurev', "Iur'ev", 'Jurjev']],
    ['Яковлев', ['Iakovlev', 'Yakovlev', 'Jakovlev']],
    ['Крылов', ['Krylov', 'Krilov']],
    ['Ильин', ['Ilin', 'Ilyin', "Il'in"]],
    ['Объедков', ['Obedkov', 'Obiedkov', 'Obyedkov', "Ob'edkov"]],
    ['Сергеев', ['Sergeev', 'Sergeyev']],
    ['Достоевский', ['Dostoevskii', 'Dostoyevsky', 'Dostoevskiy']],
    ['Черных', ['Chernykh', 'Chernyh', 'Chernikh']],
    ['Жуков', ['Zhukov', 'ZHUKOV']],
    ['Алексеев', ['Alekseev', 'Alexeev', 'Aleksejev']],
    ['Римский-Корсаков', ['Rimsky-Korsakov', 'Rimskiy Korsakov', 'Rimskii-Korsakov']],
    ['Эйзенштейн', ['Eizenshtein', 'Eyzenshteyn']],
    ['Мария', ['Maria', 'Mariya', 'Mariia']],
  ])('%s meets %j', (cyrillic, spellings) => {
    for (const latin of spellings) expect(foldName(latin)).toBe(foldName(cyrillic));
  });

  it('gives plain Latin letters only', () => {
    expect(foldName('Щукин-Ёлкин')).toMatch(/^[a-z]+$/);
    expect(foldName('Müller')).toBe(foldName('Muller'));
  });

  it('keeps different surnames apart', () => {
    expect(foldName('Иванов')).not.toBe(foldName('Иванова'));
    expect(foldName('Petrov')).not.toBe(foldName('Иванов'));
    expect(foldName('Сидоров')).not.toBe(foldName('Sidorenko'));
  });
});

describe('sameSurname', () => {
  it('matches case-, space- and alphabet-insensitively', () => {
    expect(sameSurname('ivanov ', 'Иванов')).toBe(true);
    expect(sameSurname('ИВАНОВ', 'Ivanov')).toBe(true);
    expect(sameSurname('Иванов', 'Иванов')).toBe(true);
  });

  it('never matches an empty or letterless surname', () => {
    expect(sameSurname('', '')).toBe(false);
    expect(sameSurname('  ', 'Иванов')).toBe(false);
    expect(sameSurname('--', '-')).toBe(false);
  });
});

describe('stays and sessions', () => {
  const end = new Date('2030-05-03T09:00:00Z');

  it('a session lasts the configured hours, never past the end of the stay', () => {
    const now = new Date('2030-05-02T00:00:00Z');
    expect(sessionUntil(now, 4, end)).toEqual(new Date('2030-05-02T04:00:00Z'));
    expect(sessionUntil(now, 720, end)).toEqual(end);
  });

  it('normalizes a MAC written any usual way', () => {
    for (const mac of ['aa:bb:cc:dd:ee:0f', 'AA-BB-CC-DD-EE-0F', 'aabbccddee0f', 'aabb.ccdd.ee0f'])
      expect(normalizeMac(mac)).toBe('AA:BB:CC:DD:EE:0F');
  });
});
