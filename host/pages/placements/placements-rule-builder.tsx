import { useEffect, useRef, type ReactNode } from 'react';
import type { JsonValue } from '../../../shared';
import { NamesEditor } from './placements-rule-names';
import {
  newCondition,
  newGroup,
  ruleOfTree,
  type ConditionKey,
  type RuleCondition,
  type RuleGroup,
  type RuleNode,
} from './placements-rule-tree';

/** What each condition tests, as its choice says it, and its two tests (holds, `not`). */
const KEYS: ReadonlyArray<[ConditionKey, string, [string, string]]> = [
  ['roles', 'Role', ['is one of', 'is none of']],
  ['tenants', 'Tenant', ['is one of', 'is none of']],
  ['flags', 'Flag', ['is on (any of these)', 'is off (all of these)']],
  ['permissions', 'Permission', ['is one of', 'is none of']],
];
export interface RuleBuilderProps {
  id: string;
  name: ReactNode;
  tree: RuleNode | null;
  setRule(rule: JsonValue | undefined): void;
  /** The id of what says the draft check's problem of a condition (`2.1`), if it has one: its box is marked by it. */
  problemAt?(condition: string): string | undefined;
}

const NO_PROBLEM = () => undefined;

/** The builder's form of a tree; the focus follows what is added (its first control) and removed (its group's Add). */
export function RuleBuilder({ id, name, tree, setRule, problemAt = NO_PROBLEM }: RuleBuilderProps) {
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const set = (next: RuleNode | null, focus: string) => {
    focusNext.current = focus;
    setRule(ruleOfTree(next));
  };
  const controlId = (path: string, control: string) => `${id}-rule-${path.replace(/\./g, '-')}-${control}`;
  const context = <span className="visually-hidden"> in the Shown when rule of {name}</span>;
  const props = { controlId, context, problemAt };

  if (tree === null) {
    return (
      // What no rule means is said once, under the field (RuleField's reading, which describes its group): said here
      // too, a screen reader read it twice in two wordings.
      <div className="rule-builder">
        <button
          type="button"
          className="button button--secondary"
          id={controlId('', 'add')}
          onClick={() => set(newCondition(), controlId('1', 'key'))}
        >
          Add a condition{context}
        </button>
      </div>
    );
  }
  return (
    <div className="rule-builder">
      {tree.kind === 'group' ? (
        <GroupEditor group={tree} path="" change={(next, focus) => set(next, focus)} {...props} />
      ) : (
        <>
          <ConditionEditor
            condition={tree}
            path="1"
            change={(next, focus) => set(next, focus)}
            removeFocus={controlId('', 'add')}
            {...props}
          />
          <p className="rule-builder__actions">
            <AddButtons
              path=""
              next="2"
              controlId={controlId}
              context={context}
              // A second part: the lone condition and it grouped under "all of".
              add={(part, focus) => set({ kind: 'group', combine: '$all', not: false, parts: [tree, part] }, focus)}
            />
          </p>
        </>
      )}
    </div>
  );
}

export interface NodeEditorProps {
  path: string;
  controlId(path: string, control: string): string;
  /** The card's name for screen readers, after each control's label. */
  context: ReactNode;
  /** Replaces this node (null: removes it), then focuses the element of that id. */
  change(next: RuleNode | null, focus: string): void;
  problemAt(condition: string): string | undefined;
}

/** Where a part of a group is (`2`, `1.3`): its number in the group, after its group's path. */
function partPath(group: string, index: number): string {
  return group === '' ? String(index + 1) : `${group}.${index + 1}`;
}

function GroupEditor({ group, path, controlId, context, change, problemAt }: NodeEditorProps & { group: RuleGroup }) {
  const root = path === '';
  const named = root ? 'the rule' : `group ${path}`;
  const addId = controlId(path, 'add');
  const setPart = (index: number) => (next: RuleNode | null, focus: string) => {
    const parts =
      next === null
        ? group.parts.filter((_, at) => at !== index)
        : group.parts.map((part, at) => (at === index ? next : part));
    // The rule's last condition removed: no rule (always shown), not an empty group the server refuses.
    if (root && parts.length === 0) change(null, controlId('', 'add'));
    else change({ ...group, parts }, focus);
  };
  return (
    <>
      <div className="rule-builder__row">
        <label htmlFor={controlId(path, 'combine')}>
          {root ? 'Shown when' : `Group ${path}: shown when`}
          {context}
        </label>
        <select
          id={controlId(path, 'combine')}
          value={group.combine}
          onChange={(event) => change({ ...group, combine: event.target.value as RuleGroup['combine'] }, '')}
        >
          <option value="$all">all of these hold</option>
          <option value="$any">any of these holds</option>
        </select>
        <label className="rule-builder__not">
          <input
            type="checkbox"
            checked={group.not}
            onChange={(event) => change({ ...group, not: event.target.checked }, '')}
          />
          Not: shown when {named} does not hold{context}
        </label>
      </div>
      {group.parts.length === 0 && <p className="field__error">An empty group: add a condition or remove it.</p>}
      <ol className="rule-builder__parts">
        {group.parts.map((part, index) => {
          const node: NodeEditorProps = {
            path: partPath(path, index),
            controlId,
            context,
            change: setPart(index),
            problemAt,
          };
          return (
            <li key={node.path}>
              {part.kind === 'group' ? (
                <fieldset className="rule-builder__group">
                  <legend>Group {node.path}</legend>
                  <GroupEditor group={part} {...node} />
                </fieldset>
              ) : (
                <ConditionEditor condition={part} removeFocus={addId} {...node} />
              )}
            </li>
          );
        })}
      </ol>
      <p className="rule-builder__actions">
        <AddButtons
          path={path}
          next={partPath(path, group.parts.length)}
          controlId={controlId}
          context={context}
          add={(part, focus) => change({ ...group, parts: [...group.parts, part] }, focus)}
        />
        {!root && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => change(null, controlId(path.split('.').slice(0, -1).join('.'), 'add'))}
          >
            Remove group {path}
            {context}
          </button>
        )}
      </p>
    </>
  );
}

interface AddButtonsProps {
  /** The group's path ('' for the rule), whose Add a condition has the id the focus goes back to after a Remove. */
  path: string;
  /** The path the part added gets (`2`, `1.3`). */
  next: string;
  controlId(path: string, control: string): string;
  context: ReactNode;
  /** Adds the part, then focuses the element of that id (the part's first control). */
  add(part: RuleNode, focus: string): void;
}

/** A group's Add a condition and Add a group (the rule's, when it is one condition): at its end. */
function AddButtons({ path, next, controlId, context, add }: AddButtonsProps) {
  const to = path === '' ? '' : ` to group ${path}`;
  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        id={controlId(path, 'add')}
        onClick={() => add(newCondition(), controlId(next, 'key'))}
      >
        Add a condition{to}
        {context}
      </button>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => add(newGroup(), controlId(next, 'combine'))}
      >
        Add a group{to}
        {context}
      </button>
    </>
  );
}

function ConditionEditor({
  condition,
  path,
  controlId,
  context,
  change,
  removeFocus,
  problemAt,
}: NodeEditorProps & { condition: RuleCondition; removeFocus: string }) {
  const [, , tests] = KEYS.find(([key]) => key === condition.key) ?? KEYS[0]!;
  return (
    <fieldset className="rule-builder__condition">
      <legend>Condition {path}</legend>
      <div className="rule-builder__row">
        <label htmlFor={controlId(path, 'key')}>
          Condition {path} is about{context}
        </label>
        <select
          id={controlId(path, 'key')}
          value={condition.key}
          // Another kind of name: the names chosen were of the other kind, so none is kept.
          onChange={(event) => change({ ...condition, key: event.target.value as ConditionKey, names: [] }, '')}
        >
          {KEYS.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor={controlId(path, 'not')}>
          Test of condition {path}
          {context}
        </label>
        <select
          id={controlId(path, 'not')}
          value={condition.not ? 'not' : 'holds'}
          onChange={(event) => change({ ...condition, not: event.target.value === 'not' }, '')}
        >
          <option value="holds">{tests[0]}</option>
          <option value="not">{tests[1]}</option>
        </select>
      </div>
      <NamesEditor
        condition={condition}
        path={path}
        controlId={controlId}
        context={context}
        setNames={(names) => change({ ...condition, names }, '')}
        problemId={problemAt(path)}
      />
      <button type="button" className="button button--secondary" onClick={() => change(null, removeFocus)}>
        Remove condition {path}
        {context}
      </button>
    </fieldset>
  );
}
