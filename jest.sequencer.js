const Sequencer = require('@jest/test-sequencer').default;

/**
 * Seconds a suite takes, roughly (a full run on 2 idle cores): the order of a run that has no timings yet (a fresh
 * clone). The slowest by name, then by layer; the first fragment a path contains wins. A stale figure only changes the
 * order.
 */
const ESTIMATED_SECONDS = [
  ['/test/gates/fuzz.test.ts', 100],
  ['/test/gates/phones.test.ts', 55],
  ['/test/workflows/deposits.test.ts', 45],
  ['/test/gates/', 40],
  ['/test/api/tv.test.ts', 30],
  ['/test/workflows/', 15],
  ['/test/realtime/', 15],
  ['/test/integrations/', 10],
  ['/test/api/', 8],
];

/**
 * Jest's order (failed first, then the slowest by the last run's timings), with an estimate for a suite it has no
 * timing of, so a fresh clone starts the long gates first instead of last (where one would run alone at the end
 * while the other workers idle). Jest's own estimate for those is the file's size, which says little here.
 */
class SlowFirstSequencer extends Sequencer {
  time(test) {
    const measured = super.time(test);
    if (measured !== undefined) return measured;
    const estimate = ESTIMATED_SECONDS.find(([fragment]) => test.path.includes(fragment));
    return (estimate ? estimate[1] : 1) * 1000;
  }
}

module.exports = SlowFirstSequencer;
