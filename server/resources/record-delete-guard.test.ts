/**
 * The refusal of a delete that would orphan records names them in the words of the resource that holds them: what
 * one of its records is called (recordLabel) for one, its label for more, as the host's lists count them.
 */
import type { ErrorBody, RecordPayload } from '../../shared';
import { useSignedInDemo } from '../../testing/server/signed-in-demo';
import { createDemoApp } from '../../testing/server/test-app';
import { Field } from './field';
import { Relation } from './relation';
import { Resource } from './resource';

class TeamsResource extends Resource {
  readonly name = 'teams';
  readonly label = 'Teams';
  override readonly recordLabel = 'team';
  fields() {
    return [Field.text('title'), Field.text('label')];
  }
  override relations() {
    return [Relation.hasMany('people', { label: 'Members', resource: 'people', foreignKey: 'teamId' })];
  }
  override allowsCreate() {
    return true;
  }
  override allowsDelete() {
    return true;
  }
}

/** A plural that is not the singular and an "s": what a count of them must not make up. */
class PeopleResource extends Resource {
  readonly name = 'people';
  readonly label = 'People';
  override readonly recordLabel = 'person';
  fields() {
    return [Field.text('title'), Field.text('label'), Field.relation('team')];
  }
  override relations() {
    return [Relation.belongsTo('team', { label: 'Team', resource: 'teams', foreignKey: 'teamId' })];
  }
  override allowsCreate() {
    return true;
  }
}

describe('the refusal of a delete that records still refer to', () => {
  const demo = useSignedInDemo(() =>
    createDemoApp({
      configure: (app) => app.registerResource(new TeamsResource()).registerResource(new PeopleResource()),
    }),
  );

  const create = async (resource: string, data: object) =>
    ((await demo.agent.post(`/api/resources/${resource}/records`).send(data).expect(201)).body as RecordPayload).record;
  const refusal = async (id: number) => {
    const response = await demo.agent.delete(`/api/resources/teams/records/${id}`);
    expect(response.status).toBe(409);
    return (response.body as ErrorBody).error.message;
  };

  it('counts one referring record by its recordLabel and several by the label, the verb agreeing', async () => {
    const platform = await create('teams', { title: 'Platform', label: 'x' });
    await create('people', { title: 'Ann', label: 'x', teamId: platform.id });
    expect(await refusal(platform.id)).toBe(
      '“Platform” cannot be deleted: 1 person (“Ann”) still refers to it. Change or delete that one first.',
    );

    await create('people', { title: 'Bo', label: 'x', teamId: platform.id });
    expect(await refusal(platform.id)).toBe(
      '“Platform” cannot be deleted: 2 people (“Ann”, “Bo”) still refer to it. Change or delete those first.',
    );
  });
});
