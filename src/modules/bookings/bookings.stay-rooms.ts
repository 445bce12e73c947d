import type { Span } from './bookings.repository';
import type { Segment, SegmentInput } from './bookings.segments-repository';

/**
 * A moved stay's segments once its ends move to `span`, as the trigger of migration 94 cuts them: those it still
 * overlaps (with none, the last when the stay moved past them all, else the first), the first starting and the last
 * ending with the stay. A change of dates checks these rooms and, before arrival, puts the booking in the first.
 */
export function segmentsOver(segments: Segment[], span: Span): SegmentInput[] {
  const overlapping = segments.filter((segment) => segment.start_at < span.end && segment.end_at > span.start);
  const last = segments[segments.length - 1];
  const kept = overlapping.length > 0 ? overlapping : [span.start >= last.end_at ? last : segments[0]];
  return kept.map((segment, i) => ({
    room_id: segment.room_id,
    start: i === 0 ? span.start : segment.start_at,
    end: i === kept.length - 1 ? span.end : segment.end_at,
  }));
}
