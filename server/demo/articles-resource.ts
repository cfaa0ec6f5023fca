import { Slot } from '../../shared';
import { Field } from '../resources/field';
import { RecordFilter } from '../resources/record-filter';
import { Relation } from '../resources/relation';
import { Resource } from '../resources/resource';

export const ARTICLE_GROUPS = ['news', 'guides', 'opinion'] as const;

/**
 * Demo resource: its form mixes fields, its author (a relation) and two form slots (a slug preview, a search snippet
 * preview); its list is filtered by group, author, the featured box and a range of publication days.
 */
export class ArticlesResource extends Resource {
  readonly name = 'articles';
  readonly label = 'Articles';
  override readonly recordLabel = 'article';

  fields() {
    return [
      Field.text('title', { label: 'Title', required: true, maxLength: 200 }),
      Slot.make('SlugPreview', { source: 'title', target: 'slug' }),
      Field.text('slug', { label: 'Slug', maxLength: 200, help: 'Part of the public URL.' }),
      Field.text('label', { label: 'Label', required: true, maxLength: 100 }),
      Field.relation('author', { help: "Type a word of the author's name, then choose." }),
      Field.select('group', { label: 'Group', options: ARTICLE_GROUPS }),
      Field.date('published', { label: 'Published on', help: 'Leave empty while the article is a draft.' }),
      Field.checkbox('featured', { label: 'Featured' }),
      Field.textarea('body', { label: 'Body', maxLength: 20_000 }),
      Slot.make('SearchSnippetPreview', { titleField: 'title', bodyField: 'body' }),
    ];
  }

  override listColumns() {
    return ['title', 'label', 'group', 'published', 'authorId'];
  }

  override filters() {
    return [
      RecordFilter.select('group'),
      RecordFilter.relation('author'),
      RecordFilter.checkbox('featured'),
      RecordFilter.dateRange('published'),
    ];
  }

  override allowsCreate() {
    return true;
  }

  override allowsDelete() {
    return true;
  }

  override relations() {
    return [Relation.belongsTo('author', { label: 'Author', resource: 'authors', foreignKey: 'authorId' })];
  }
}
