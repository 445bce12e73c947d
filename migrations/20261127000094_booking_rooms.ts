import type { Knex } from 'knex';

const HOLDS_ROOM = (row: 'NEW' | 'OLD' | 'b') => `${row}.status IN ('inquiry','confirmed','checked_in')`;

/**
 * The rooms a stay occupies, as segments of its time (room moves, docs/decisions/room-moves.md). The exclusion
 * constraint that keeps a night from being sold twice moves here from `bookings`: two active segments of one room
 * never overlap, whoever writes them. Every booking has at least one segment, kept by a trigger on `bookings` (so
 * every writer, SQL by hand included, keeps them true): a new booking gets one over its span; a status that stops
 * holding the room makes them inactive; a change of room of a stay in one room moves its segment; a change of the
 * stay's ends cuts or stretches the first and last segments (segments left outside the stay go); a status holding
 * the room again makes them active again. A move writes the segments itself. Segment writes move the hotel's
 * inventory version like the bookings' (migration 52). At commit, a booking holding a room must hold its `room_id`
 * by an active segment: before arrival its first segment's, in house one within a day of now (a deferred constraint
 * trigger), so no writer leaves the guest in a room nothing holds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE booking_rooms (
      hotel_id uuid NOT NULL,
      booking_id uuid NOT NULL,
      room_id uuid NOT NULL,
      during tstzrange NOT NULL,
      active boolean NOT NULL,
      PRIMARY KEY (booking_id, during),
      FOREIGN KEY (hotel_id, booking_id) REFERENCES bookings (hotel_id, id) ON DELETE CASCADE,
      FOREIGN KEY (hotel_id, room_id) REFERENCES rooms (hotel_id, id),
      CONSTRAINT booking_rooms_span_check CHECK (NOT isempty(during) AND lower_inc(during) AND NOT upper_inc(during)
        AND NOT lower_inf(during) AND NOT upper_inf(during)),
      CONSTRAINT booking_rooms_no_double_booking EXCLUDE USING gist (room_id WITH =, during WITH &&) WHERE (active),
      CONSTRAINT booking_rooms_one_room_at_a_time EXCLUDE USING gist (booking_id WITH =, during WITH &&)
    )`);
  await knex.raw('CREATE INDEX booking_rooms_hotel_during ON booking_rooms USING gist (hotel_id, during) WHERE active');
  await knex.raw(`
    INSERT INTO booking_rooms (hotel_id, booking_id, room_id, during, active)
      SELECT hotel_id, id, room_id, tstzrange(start_at, end_at, '[)'), status IN ('inquiry','confirmed','checked_in')
      FROM bookings`);
  await knex.raw('ALTER TABLE bookings DROP CONSTRAINT bookings_no_double_booking');

  await knex.raw(`
    CREATE FUNCTION booking_rooms_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      holds boolean := ${HOLDS_ROOM('NEW')};
      span tstzrange := tstzrange(NEW.start_at, NEW.end_at, '[)');
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO booking_rooms (hotel_id, booking_id, room_id, during, active)
          VALUES (NEW.hotel_id, NEW.id, NEW.room_id, span, holds);
        RETURN NULL;
      END IF;
      -- A stay put back (a cancellation undone by hand) holds its rooms again, or is refused where they were sold.
      IF NOT holds THEN
        UPDATE booking_rooms SET active = false WHERE booking_id = NEW.id AND active;
      ELSE
        UPDATE booking_rooms SET active = true WHERE booking_id = NEW.id AND NOT active;
      END IF;
      IF (SELECT count(*) FROM booking_rooms WHERE booking_id = NEW.id) = 1 THEN
        UPDATE booking_rooms SET room_id = NEW.room_id, during = span
          WHERE booking_id = NEW.id AND (room_id, during) IS DISTINCT FROM (NEW.room_id, span);
      ELSIF (OLD.start_at, OLD.end_at) IS DISTINCT FROM (NEW.start_at, NEW.end_at) THEN
        -- A moved stay's ends moved: the segments it still overlaps stay (or, with none, the one nearest to it).
        IF EXISTS (SELECT 1 FROM booking_rooms WHERE booking_id = NEW.id AND during && span) THEN
          DELETE FROM booking_rooms WHERE booking_id = NEW.id AND NOT during && span;
        ELSIF lower(span) >= (SELECT max(upper(during)) FROM booking_rooms WHERE booking_id = NEW.id) THEN
          DELETE FROM booking_rooms WHERE booking_id = NEW.id
            AND lower(during) < (SELECT max(lower(during)) FROM booking_rooms WHERE booking_id = NEW.id);
        ELSE
          DELETE FROM booking_rooms WHERE booking_id = NEW.id
            AND lower(during) > (SELECT min(lower(during)) FROM booking_rooms WHERE booking_id = NEW.id);
        END IF;
        UPDATE booking_rooms s SET during = tstzrange(
            CASE WHEN lower(s.during) = ends.first THEN NEW.start_at ELSE lower(s.during) END,
            CASE WHEN upper(s.during) = ends.last THEN NEW.end_at ELSE upper(s.during) END, '[)')
          FROM (SELECT min(lower(during)) AS first, max(upper(during)) AS last
                FROM booking_rooms WHERE booking_id = NEW.id) ends
          WHERE s.booking_id = NEW.id AND (lower(s.during) = ends.first OR upper(s.during) = ends.last);
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER bookings_rooms_added AFTER INSERT ON bookings
      FOR EACH ROW EXECUTE FUNCTION booking_rooms_follow()`);
  await knex.raw(`
    CREATE TRIGGER bookings_rooms_changed AFTER UPDATE OF status, room_id, start_at, end_at ON bookings
      FOR EACH ROW WHEN ((${HOLDS_ROOM('OLD')}) IS DISTINCT FROM (${HOLDS_ROOM('NEW')})
        OR (OLD.room_id, OLD.start_at, OLD.end_at) IS DISTINCT FROM (NEW.room_id, NEW.start_at, NEW.end_at))
      EXECUTE FUNCTION booking_rooms_follow()`);
  await knex.raw(`
    CREATE FUNCTION booking_room_held() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      b bookings;
      now_at timestamptz;
    BEGIN
      SELECT * INTO b FROM bookings WHERE id = NEW.id;
      IF NOT FOUND OR NOT (${HOLDS_ROOM('b')}) THEN
        RETURN NULL;
      END IF;
      now_at := greatest(b.start_at, least(now(), b.end_at));
      IF NOT EXISTS (
        SELECT 1 FROM booking_rooms s
        WHERE s.booking_id = b.id AND s.active AND s.room_id = b.room_id
          AND CASE WHEN b.status = 'checked_in'
                THEN s.during && tstzrange(now_at - interval '1 day', now_at + interval '1 day')
                ELSE lower(s.during) = (SELECT min(lower(during)) FROM booking_rooms WHERE booking_id = b.id) END
      ) THEN
        RAISE EXCEPTION 'booking % holds no segment in its room %', b.id, b.room_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'bookings_room_held';
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER bookings_room_held_added AFTER INSERT ON bookings
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION booking_room_held()`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER bookings_room_held AFTER UPDATE OF status, room_id, start_at, end_at ON bookings
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN ((OLD.status, OLD.room_id, OLD.start_at, OLD.end_at) IS DISTINCT FROM
            (NEW.status, NEW.room_id, NEW.start_at, NEW.end_at))
      EXECUTE FUNCTION booking_room_held()`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER booking_rooms_inventory_changed AFTER INSERT OR UPDATE OR DELETE ON booking_rooms
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inventory_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER bookings_room_held ON bookings');
  await knex.raw('DROP TRIGGER bookings_room_held_added ON bookings');
  await knex.raw('DROP FUNCTION booking_room_held()');
  await knex.raw('DROP TRIGGER bookings_rooms_changed ON bookings');
  await knex.raw('DROP TRIGGER bookings_rooms_added ON bookings');
  await knex.raw('DROP FUNCTION booking_rooms_follow()');
  await knex.raw('DROP TABLE booking_rooms');
  await knex.raw(`ALTER TABLE bookings ADD CONSTRAINT bookings_no_double_booking EXCLUDE USING gist
      (room_id WITH =, tstzrange(start_at, end_at, '[)') WITH &&)
      WHERE (status IN ('inquiry','confirmed','checked_in'))`);
}
