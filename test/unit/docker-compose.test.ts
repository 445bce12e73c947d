import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';

/**
 * Docker cannot run where the tests run, so docker-compose.yml is checked by reading it: against the Compose
 * Specification's JSON schema (vendored in test/fixtures/compose-spec), every image pinned to a version tag, and
 * no port published on every interface except the API's.
 */

interface Service {
  image?: string;
  build?: unknown;
  ports?: (string | number)[];
}
type ComposeFile = { services: Record<string, Service> } & Record<string, unknown>;

const root = path.resolve(__dirname, '../..');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as ComposeFile;
const services = Object.entries(compose.services);

function composeValidator() {
  const schema = JSON.parse(readFileSync(path.join(root, 'test/fixtures/compose-spec/compose-spec.json'), 'utf8'));
  // The schema names its draft-07 meta-schema by an https URL, which Ajv (draft-07 by default) registers as http;
  // Ajv's type strictness is off: the schema types many values as unions (`["boolean", "string"]`) by design, and
  // puts object keywords beside an array in `gpus`.
  delete schema.$schema;
  return new Ajv({ allErrors: true, strictTypes: false }).compile(schema);
}
const validate = composeValidator();

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    validate(compose);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('the schema check refuses a misspelt service key and an unknown dependency condition', () => {
    const broken = structuredClone(compose);
    broken.services.api = { ...broken.services.api, imagee: 'x' } as Service;
    broken.services.worker = { ...broken.services.worker, depends_on: { api: { condition: 'when_ready' } } } as Service;
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toEqual(
      expect.arrayContaining(['/services/api', '/services/worker/depends_on/api/condition']),
    );
  });

  it.each(services)('service %s runs an image pinned to a version tag, or the app built here', (_name, service) => {
    if (service.build !== undefined) {
      expect(service.image).toBeUndefined();
      return;
    }
    const image = service.image ?? '';
    const lastSegment = image.slice(image.lastIndexOf('/') + 1);
    const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : '';
    // A version (major.minor at least), not `latest`, a bare major or a name like `alpine` that moves.
    expect(tag).toMatch(/^v?\d+\.\d+/);
  });

  it('publishes ports on every interface for the API only; the rest listen on 127.0.0.1', () => {
    const openToAll = services.flatMap(([name, service]) =>
      (service.ports ?? [])
        .map(String)
        .filter((port) => !port.startsWith('127.0.0.1:'))
        .map(() => name),
    );
    expect(openToAll).toEqual(['api']);
  });
});
