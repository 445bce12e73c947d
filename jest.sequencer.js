const Sequencer = require('@jest/test-sequencer').default;

/** Seconds a suite of each layer takes, roughly: the order of a run that has no timings yet (a fresh clone). */
const LAYER_SECONDS = [
  ['/test/gates/', 40],
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
    const layer = LAYER_SECONDS.find(([dir]) => test.path.includes(dir));
    return (layer ? layer[1] : 1) * 1000;
  }
}

module.exports = SlowFirstSequencer;
