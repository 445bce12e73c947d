import { normalizePhone, phoneDigits, phoneSearchDigits } from '../../src/platform/phone';

describe('platform/phone: the one normal form', () => {
  it.each([
    ['+7 900 555-00-11', '+79005550011'],
    ['8 (900) 555-00-11', '+79005550011'],
    ['900 555-00-11', '+79005550011'],
    ['+7(900)5550011', '+79005550011'],
    ['+7 900 555.00.11', '+79005550011'],
    ['79005550011', '+79005550011'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+375 29 123-45-67', '+375291234567'],
  ])('reads %s as %s (the hotel country, Russia, for a number without its code)', (typed, normal) => {
    expect(normalizePhone(typed)).toBe(normal);
    expect(phoneDigits(typed)).toBe(normal.slice(1));
  });

  it.each(['12345', '12-345', '+7 900 123-45-6', 'call me', '', null, undefined])('has no form for %p', (typed) => {
    expect(normalizePhone(typed)).toBeNull();
    expect(phoneDigits(typed)).toBeNull();
  });

  it('searches a whole number by its national digits, a part by its digits', () => {
    expect(phoneSearchDigits('8 (900) 555-00-11')).toBe('9005550011');
    expect(phoneSearchDigits('+7 900 555-00-11')).toBe('9005550011');
    expect(phoneSearchDigits('555-00')).toBe('55500');
  });
});
