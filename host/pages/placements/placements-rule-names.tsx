import { useState, type ReactNode } from 'react';
import { STAFF_PERMISSIONS, STAFF_ROLES } from '../../../shared';
import { useRuleChoices } from './placements-rule-choices';
import type { RuleCondition } from './placements-rule-tree';

export interface NamesEditorProps {
  condition: RuleCondition;
  path: string;
  controlId(path: string, control: string): string;
  context: ReactNode;
  setNames(names: string[]): void;
  /**
   * The id of what says the draft check's problem of this condition (a name that does not exist), if it has one:
   * the box of other names, where such a name is, is marked invalid and described by it.
   */
  problemId?: string;
}

/** Names typed in a box: separated by commas or spaces, each once. */
function namesOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((name) => name !== ''))];
}

/**
 * The names a condition tests: a box per name the server knows (the staff roles and permissions, the tenants and
 * flags of the preview's choices), and for tenants and flags a text box of other names (all of them, while the
 * choices are unknown). A name the rule has that is not known gets its box too, checked.
 */
export function NamesEditor({ condition, path, controlId, context, setNames, problemId }: NamesEditorProps) {
  const choices = useRuleChoices();
  const { key, names } = condition;
  const open = key === 'tenants' || key === 'flags';
  const known: Array<[string, string]> =
    key === 'roles'
      ? STAFF_ROLES.map((role) => [role, role])
      : key === 'permissions'
        ? STAFF_PERMISSIONS.map((permission) => [permission, permission])
        : key === 'tenants'
          ? (choices?.tenants ?? []).map((tenant) => [tenant.id, `${tenant.name} (${tenant.id})`])
          : (choices?.flags ?? []).map((flag) => [flag, flag]);
  const knownNames = known.map(([value]) => value);
  // Closed lists (roles, permissions): a name outside them is shown checked, for the server to refuse it in words.
  const unknown = names.filter((name) => !knownNames.includes(name)).map((name): [string, string] => [name, name]);
  const boxes: Array<[string, string]> = open ? known : [...known, ...unknown];
  const others = open ? names.filter((name) => !knownNames.includes(name)) : [];
  const othersText = others.join(', ');
  const [typed, setTyped] = useState(othersText);
  const [typedFor, setTypedFor] = useState(othersText);
  if (typedFor !== othersText) {
    setTyped(othersText);
    setTypedFor(othersText);
  }
  const plural = { roles: 'Roles', permissions: 'Permissions', tenants: 'Tenants', flags: 'Flags' }[key];
  return (
    <fieldset className="rule-builder__names">
      <legend>
        {plural} of condition {path}
        {context}
      </legend>
      {boxes.length > 0 && (
        <ul className="rule-builder__choices">
          {boxes.map(([value, label]) => (
            <li key={value}>
              <label>
                <input
                  type="checkbox"
                  checked={names.includes(value)}
                  onChange={(event) =>
                    setNames(event.target.checked ? [...names, value] : names.filter((name) => name !== value))
                  }
                />
                {label}
                {/* Not the name alone: a card's rule has a box of that name per condition, and the page a rule per card. */}
                <span className="visually-hidden">
                  {' '}
                  as one of the {plural.toLowerCase()} of condition {path}
                </span>
                {context}
              </label>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <div className="rule-builder__others">
          <label htmlFor={controlId(path, 'others')}>
            {boxes.length > 0 ? `Other ${plural.toLowerCase()}` : plural} of condition {path}, separated by commas
            {context}
          </label>
          <input
            id={controlId(path, 'others')}
            type="text"
            value={typed}
            aria-invalid={problemId !== undefined}
            aria-describedby={problemId}
            onChange={(event) => {
              const text = event.target.value;
              setTyped(text);
              const next = [...names.filter((name) => knownNames.includes(name)), ...namesOf(text)];
              setTypedFor(namesOf(text).join(', '));
              setNames(next);
            }}
          />
        </div>
      )}
    </fieldset>
  );
}
