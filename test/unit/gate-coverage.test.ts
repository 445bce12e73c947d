import { MODULES } from '../../src/modules/registry';
import { compareCoverage, coverageProblems, operationKey, operationMatcher, registryGaps } from '../helpers/gates';

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

describe('naming the operation a request reached', () => {
  const match = operationMatcher([
    { method: 'get', path: '/api/hotels/:slug/rooms/:id' },
    { method: 'get', path: '/api/hotels/:slug/rooms/by-number' },
    { method: 'post', path: '/api/hotels/:slug/rooms' },
  ]);

  it('by method and path, the query left aside, a literal segment before a parameter', () => {
    expect(match('GET', '/api/hotels/h1/rooms/42?x=1')).toBe('GET /api/hotels/:slug/rooms/:id');
    expect(match('GET', '/api/hotels/h1/rooms/by-number')).toBe('GET /api/hotels/:slug/rooms/by-number');
    expect(match('POST', '/api/hotels/h1/rooms/')).toBe('POST /api/hotels/:slug/rooms');
  });

  it('names nothing for a URL or method no route declares', () => {
    expect(match('DELETE', '/api/hotels/h1/rooms')).toBeUndefined();
    expect(match('GET', '/api/hotels/h1/rooms/42/photos')).toBeUndefined();
    expect(match('GET', '/api/hotels//rooms/42')).toBeUndefined();
  });
});
