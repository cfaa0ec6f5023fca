/**
 * What a test gives react-jsonschema-form for its `allOf` merger (@x0k/json-schema-merge), which is ES modules only
 * and cannot load under Jest's CommonJS: a merger that refuses to merge. The schemas of these tests have no `allOf`.
 *
 *     jest.mock('@x0k/json-schema-merge', () => jest.requireActual('<path>/testing/host/schema-merger-stub'));
 *     jest.mock('@x0k/json-schema-merge/lib/array', () => jest.requireActual('<path>/testing/host/schema-merger-stub'));
 */
function noMerge(): never {
  throw new Error('No allOf merging under Jest: the merger is ES modules only.');
}

export const createComparator = () => ({ compareSchemaDefinitions: noMerge, compareSchemaValues: noMerge });
export const createMerger = () => ({ mergeArrayOfSchemaDefinitions: noMerge });
export const createShallowAllOfMerge = () => noMerge;
export const createIntersector = () => noMerge;
export const createDeduplicator = () => noMerge;
