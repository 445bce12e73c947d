import { fromStoredFields, fromStoredJson, storableJsonText, toStorableFields } from '../../src/platform/db/jsonb';

/** What PostgreSQL's jsonb refuses in JSON text: U+0000 and unpaired surrogates, escaped or not. */
const jsonbRefuses = (text: string) => /\\u(?:0000|d[89a-f][0-9a-f]{2})/i.test(text.replace(/\\\\/g, ''));

describe('values stored in jsonb', () => {
  const values: unknown[] = [
    { ports: [{ name: 'COM3\u0000' }] },
    { message: 'half a pair \ud83d here' },
    { $json: 'a value of the wrapper’s own shape' },
    { $json: { nested: true } },
    'plain',
    ['\u0000'],
    { path: 'C:\\u0000 is only text' },
    { emoji: '😀', amount: 12.5, none: null },
  ];

  it.each(values.map((value) => [JSON.stringify(value), value]))('%s is read back exactly', (_text, value) => {
    const text = storableJsonText(value);
    expect(jsonbRefuses(text)).toBe(false);
    expect(fromStoredJson(JSON.parse(text))).toEqual(value);
  });

  it('a record keeps its plain fields as they are, for SQL to read', () => {
    const message = { kind: 'completeActivity', workflowId: 'card:1', result: { port: 'COM3\u0000' } };
    const stored = JSON.parse(JSON.stringify(toStorableFields(message))) as typeof message;
    expect(stored).toMatchObject({ kind: 'completeActivity', workflowId: 'card:1' });
    expect(stored.result).not.toEqual(message.result);
    expect(fromStoredFields(stored)).toEqual(message);
  });
});
