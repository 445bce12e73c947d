/**
 * The modules that follow another's records (they keep their own rows of them, or may refuse a change), each told in
 * the transaction that writes the record. A follower registers when its module is built, after the module it follows
 * (whose service it uses); followers are told one after another, in that order, as they share the transaction.
 */
export function createFollowers<Told extends unknown[]>() {
  const followers: ((...told: Told) => Promise<void>)[] = [];
  return {
    add(follower: (...told: Told) => Promise<void>): void {
      followers.push(follower);
    },
    /** Whether anyone follows: what is told need not be worked out for nobody. */
    get any(): boolean {
      return followers.length > 0;
    },
    async tell(...told: Told): Promise<void> {
      for (const follower of followers) await follower(...told);
    },
  };
}
