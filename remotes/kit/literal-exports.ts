import type { Expression, ObjectExpression, Pattern, Program } from 'estree';

/**
 * The exports of a module whose value is written as a literal in the module itself: `export const Card = { title:
 * 'x' }`, `export default 'Card'`, or `const Card = [1]; export { Card }`. What each is, as a message says it ("an
 * object literal", "a string", …), by exported name. Nothing else is judged: a function, a class, a call
 * (`memo(…)`, `forwardRef(…)`), a variable that may be reassigned (`let`, `var`) or a re-export from another file may
 * be a component, which only running the code tells.
 */
export function literalExportsOf(program: Program): Record<string, string> {
  const constants = new Map<string, string | undefined>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type === 'Identifier') {
        constants.set(declarator.id.name, declarator.init ? literalKind(declarator.init) : undefined);
      }
    }
  }
  const found: Record<string, string> = {};
  const record = (name: string, kind: string | undefined) => {
    if (kind !== undefined) found[name] = kind;
  };
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration' && !statement.source) {
      const { declaration } = statement;
      if (declaration?.type === 'VariableDeclaration' && declaration.kind === 'const') {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === 'Identifier') record(declarator.id.name, constants.get(declarator.id.name));
        }
      }
      for (const specifier of statement.specifiers) {
        if (specifier.local.type !== 'Identifier') continue;
        const exported = specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value;
        if (typeof exported === 'string') record(exported, constants.get(specifier.local.name));
      }
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const { declaration } = statement;
      if (declaration.type === 'Identifier') record('default', constants.get(declaration.name));
      else if (declaration.type !== 'FunctionDeclaration' && declaration.type !== 'ClassDeclaration') {
        record('default', literalKind(declaration));
      }
    }
  }
  return found;
}

/** What a literal is, as a message says it; undefined for anything else (which may be a component). */
export function literalKind(node: Expression | Pattern): string | undefined {
  switch (node.type) {
    case 'ObjectExpression':
      // React's own objects (memo, forwardRef, lazy) carry `$$typeof`; a spread may bring it.
      return mayBeReactObject(node) ? undefined : 'an object literal';
    case 'ArrayExpression':
      return 'an array';
    case 'TemplateLiteral':
      return 'a string';
    case 'Literal':
      if ('regex' in node) return 'a regular expression';
      if ('bigint' in node) return 'a number';
      return node.value === null ? 'null' : `a ${typeof node.value}`;
    default:
      return undefined;
  }
}

function mayBeReactObject(node: ObjectExpression): boolean {
  return node.properties.some(
    (property) =>
      property.type === 'SpreadElement' ||
      property.computed ||
      (property.key.type === 'Identifier' && property.key.name === '$$typeof') ||
      (property.key.type === 'Literal' && property.key.value === '$$typeof'),
  );
}
