import { keyedTokens } from '../../platform/crypto';

/**
 * Orders' status tokens: keyed by the hotel and the order, so a token is never stored (neither with the order nor in
 * a replayed answer) and a retry with the same `Idempotency-Key` is given it again. A new secret ends every token;
 * guests still read their stay's orders with the stay's proof.
 */
export function createStatusTokens(secret: string) {
  const tokens = keyedTokens(secret, 'room-service', 'order status token');
  return {
    of: (hotelId: string, orderId: string) => tokens.of(hotelId, orderId),
    matches: (hotelId: string, orderId: string, token: string) => tokens.matches(token, hotelId, orderId),
  };
}

export type StatusTokens = ReturnType<typeof createStatusTokens>;
