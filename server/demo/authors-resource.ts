import { Field } from '../resources/field';
import { RecordFilter } from '../resources/record-filter';
import { Relation } from '../resources/relation';
import { Resource } from '../resources/resource';

export const AUTHOR_GROUPS = ['staff', 'guest'] as const;

/** Demo resource: `title` holds the author's name. */
export class AuthorsResource extends Resource {
  readonly name = 'authors';
  readonly label = 'Authors';
  override readonly recordLabel = 'author';

  fields() {
    return [
      Field.text('title', { label: 'Name', required: true, maxLength: 120 }),
      Field.text('label', { label: 'Label', required: true, maxLength: 100 }),
      Field.select('group', { label: 'Group', options: AUTHOR_GROUPS }),
      Field.email('email', { label: 'Email', maxLength: 254 }),
    ];
  }

  /** Staff tell authors apart by name and address. */
  override listColumns() {
    return ['title', 'email', 'group'];
  }

  override filters() {
    return [RecordFilter.select('group')];
  }

  override allowsCreate() {
    return true;
  }

  override allowsDelete() {
    return true;
  }

  override relations() {
    return [Relation.hasMany('articles', { label: 'Articles', resource: 'articles', foreignKey: 'authorId' })];
  }
}
