import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Orders' status tokens: an HMAC of the hotel and the order under a key derived from the server's secret, so a token is
 * never stored (neither with the order nor in a replayed answer) and a retry with the same `Idempotency-Key` is given
 * it again. A new secret ends every token; guests still read their stay's orders with the stay's proof.
 */
export function createStatusTokens(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'room-service', 'order status token', 32));
  const of = (hotelId: string, orderId: string) =>
    createHmac('sha256', key).update(`${hotelId}:${orderId}`).digest('hex');
  return {
    of,
    /** Whether `token` is the order's, compared in constant time. */
    matches(hotelId: string, orderId: string, token: string): boolean {
      const given = Buffer.from(token, 'hex');
      const expected = Buffer.from(of(hotelId, orderId), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type StatusTokens = ReturnType<typeof createStatusTokens>;
