import { MODULES } from '../../src/modules/registry';
import { compareCoverage, coverageProblems, operationKey, registryGaps } from '../helpers/gates';

/**
 * The gates' own teeth: the comparison every gate makes between the operations it must cover (the registry's routes)
 * and those it exercised, and the check that the registry lists every module on disk.
 */

const DECLARED = ['GET /api/hotels/:slug/rooms', 'POST /api/hotels/:slug/rooms', 'DELETE /api/hotels/:slug/rooms/:id'];

describe('gate coverage', () => {
  it('counts an operation exercised by name as covered', () => {
    expect(compareCoverage(DECLARED, [...DECLARED, DECLARED[0]])).toEqual({
      missing: [],
      undeclared: [],
      covered: 3,
      declared: 3,
      figure: '3/3 operations',
    });
  });

  it('names a declared operation the gate never exercised', () => {
    const coverage = compareCoverage(DECLARED, DECLARED.slice(0, 2));
    expect(coverage.missing).toEqual(['DELETE /api/hotels/:slug/rooms/:id']);
    expect(coverage.figure).toBe('2/3 operations');
    expect(coverageProblems(coverage)).toEqual(['DELETE /api/hotels/:slug/rooms/:id: declared, never exercised']);
  });

  it('names an exercised operation that nothing declares (a shrunken registry, a stale table)', () => {
    const coverage = compareCoverage(DECLARED.slice(1), DECLARED);
    expect(coverage.undeclared).toEqual(['GET /api/hotels/:slug/rooms']);
    expect(coverageProblems(coverage)).toEqual(['GET /api/hotels/:slug/rooms: exercised, not declared']);
  });

  it('reads OpenAPI paths and route declarations as the same name', () => {
    expect(operationKey({ method: 'patch', path: '/api/hotels/{slug}/rooms/{id}' })).toBe(
      'PATCH /api/hotels/:slug/rooms/:id',
    );
    expect(operationKey({ method: 'patch', path: '/api/hotels/:slug/rooms/:id' })).toBe(
      'PATCH /api/hotels/:slug/rooms/:id',
    );
  });

  it('the registry lists every module on disk, and a module dropped from it is named', () => {
    expect(registryGaps()).toEqual([]);
    const shrunken = MODULES.filter((module) => module.name !== 'chat');
    expect(registryGaps(shrunken)).toEqual(['module chat (src/modules/chat) is not in the registry']);
    expect(coverageProblems(compareCoverage(DECLARED, DECLARED), shrunken)).toEqual([
      'module chat (src/modules/chat) is not in the registry',
    ]);
  });
});
