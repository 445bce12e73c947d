/** Entries one verify call checks at most (about 20 µs each): the rest by the next call, from `next_from_seq`. */
export const VERIFY_MAX = 50_000;
