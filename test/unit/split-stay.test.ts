import { splitStay } from '../../src/modules/bookings/bookings.split';

const room = (room_id: string, pattern: string) => ({ room_id, free: [...pattern].map((night) => night === '1') });

describe('a split stay', () => {
  it('takes the fewest moves: the room free longest from each night it starts', () => {
    const rooms = [room('a', '1100'), room('b', '1110'), room('c', '0011')];
    expect(splitStay(rooms, '2027-01-01', 4)).toEqual([
      { room_id: 'b', from: '2027-01-01', to: '2027-01-04' },
      { room_id: 'c', from: '2027-01-04', to: '2027-01-05' },
    ]);
  });

  it('is no split when one room is free every night, and none when a night has no free room', () => {
    expect(splitStay([room('a', '111'), room('b', '100')], '2027-01-01', 3)).toBeUndefined();
    expect(splitStay([room('a', '101'), room('b', '100')], '2027-01-01', 3)).toBeUndefined();
  });

  it('reads only the nights asked, and crosses months', () => {
    expect(splitStay([room('a', '10'), room('b', '011')], '2027-01-31', 2)).toEqual([
      { room_id: 'a', from: '2027-01-31', to: '2027-02-01' },
      { room_id: 'b', from: '2027-02-01', to: '2027-02-02' },
    ]);
  });
});
