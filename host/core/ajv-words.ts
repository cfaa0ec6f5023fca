/**
 * Ajv's English messages for the keywords a value of a slot's props can fail, which the server passes on in its
 * props problems: the browser's check (props-violations.ts) runs another validator and gives its findings these
 * words, so that both say the same.
 */

/**
 * What Ajv says of a keyword a value fails: `must be number`, `must be <= 10`, `must NOT have fewer than 2
 * characters`, `must match pattern "^[a-z]+$"`.
 */
export function ajvWords(keyword: string, schema: unknown, value: unknown): string {
  const limit = String(schema);
  switch (keyword) {
    case 'type':
      return `must be ${Array.isArray(schema) ? schema.join(',') : limit}`;
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'const':
      return 'must be equal to constant';
    case 'format':
      return `must match format "${limit}"`;
    case 'pattern':
      return `must match pattern "${limit}"`;
    case 'maximum':
      return `must be <= ${limit}`;
    case 'minimum':
      return `must be >= ${limit}`;
    case 'exclusiveMaximum':
      return `must be < ${limit}`;
    case 'exclusiveMinimum':
      return `must be > ${limit}`;
    case 'multipleOf':
      return `must be multiple of ${limit}`;
    case 'maxLength':
      return `must NOT have more than ${limit} characters`;
    case 'minLength':
      return `must NOT have fewer than ${limit} characters`;
    case 'maxItems':
      return `must NOT have more than ${limit} items`;
    case 'minItems':
      return `must NOT have fewer than ${limit} items`;
    case 'maxProperties':
      return `must NOT have more than ${limit} properties`;
    case 'minProperties':
      return `must NOT have fewer than ${limit} properties`;
    case 'uniqueItems':
      return `must NOT have duplicate items${duplicatesOf(value)}`;
    case 'not':
      return 'must NOT be valid';
    default:
      return `must match the schema's "${keyword}"`;
  }
}

/** ` (items ## 0 and 1 are identical)`: Ajv's pair, the last item equal to an earlier one, and the nearest such. */
function duplicatesOf(value: unknown): string {
  if (!Array.isArray(value)) return '';
  for (let i = value.length - 1; i > 0; i--) {
    for (let j = i - 1; j >= 0; j--) {
      if (JSON.stringify(value[i]) === JSON.stringify(value[j])) return ` (items ## ${j} and ${i} are identical)`;
    }
  }
  return '';
}
