import { createTestApp } from '../../testing/server/test-app';
import { Field } from './field';
import { RecordFilter } from './record-filter';
import { Relation } from './relation';
import { Resource } from './resource';
import { ResourceDefinitionError } from './resource-definition-error';

/**
 * A host developer's second resource, defined wrongly in one way each: the start must be refused with a message that
 * names the resource (the developer registers several) and says what to write instead.
 */
interface InvoiceParts {
  fields?: () => ReturnType<Resource['fields']>;
  relations?: () => readonly Relation[];
  listColumns?: () => readonly string[];
  filters?: () => readonly RecordFilter[];
}

function invoices(parts: InvoiceParts): Resource {
  return new (class extends Resource {
    readonly name = 'invoices';
    readonly label = 'Invoices';
    fields() {
      return parts.fields
        ? parts.fields()
        : [
            Field.text('title', { label: 'Number', required: true }),
            Field.text('label'),
            Field.relation('customer'),
            Field.date('issued'),
            Field.number('amount'),
            Field.select('status', { options: ['draft', 'paid'] }),
          ];
    }
    override relations() {
      return parts.relations
        ? parts.relations()
        : [Relation.belongsTo('customer', { label: 'Customer', resource: 'customers', foreignKey: 'customerId' })];
    }
    override listColumns() {
      return parts.listColumns ? parts.listColumns() : ['title'];
    }
    override filters() {
      return parts.filters ? parts.filters() : [];
    }
  })();
}

class CustomersResource extends Resource {
  readonly name = 'customers';
  readonly label = 'Customers';
  fields() {
    return [Field.text('title'), Field.text('label')];
  }
}

/** The refusal of a start registering the customers and these invoices, on a real SQLite file. */
async function refusal(parts: InvoiceParts): Promise<ResourceDefinitionError> {
  const started = createTestApp({
    configure: (app) => app.registerResource(new CustomersResource()).registerResource(invoices(parts)),
  });
  const error: unknown = await started.then(
    async (test) => {
      await test.close();
      throw new Error('The start was not refused.');
    },
    (refused: unknown) => refused,
  );
  expect(error).toBeInstanceOf(ResourceDefinitionError);
  return error as ResourceDefinitionError;
}

describe('a resource defined wrongly stops the start with a message naming it', () => {
  it.each<[string, InvoiceParts, string]>([
    [
      'a field option its kind does not take, made inside fields()',
      { fields: () => [Field.text('title'), Field.text('label'), Field.number('amount', { maxLength: 10 } as never)] },
      'Resource "invoices", in fields(): Field "amount": a number field takes no "maxLength"',
    ],
    [
      'a select without options',
      { fields: () => [Field.text('title'), Field.text('label'), Field.select('status', { options: [] })] },
      'Resource "invoices", in fields(): Select field "status" needs a non-empty list',
    ],
    [
      'a relation without its key',
      { relations: () => [Relation.belongsTo('customer', { label: 'Customer', resource: 'customers' } as never)] },
      'Resource "invoices", in relations(): Relation "customer": foreign key undefined is not valid',
    ],
    [
      'a filter with a bad name',
      { filters: () => [RecordFilter.select('bad name')] },
      'Resource "invoices", in filters(): Filter name "bad name" is not valid.',
    ],
  ])('%s: the field helper’s message, after the resource and the method', async (_, parts, message) => {
    expect((await refusal(parts)).message).toContain(message);
  });

  it('wraps an error of the definition’s own code, keeping it as the cause', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'map')");
    const error = await refusal({
      fields: () => {
        throw bug;
      },
    });
    expect(error.message).toBe(`Resource "invoices": its fields() threw TypeError: ${bug.message}`);
    expect(error.cause).toBe(bug);
  });

  it.each<[string, InvoiceParts, string]>([
    [
      'a relation named as a list column',
      { listColumns: () => ['title', 'customer'] },
      `list column "customer" is not one of its fields (title, label, issued, amount, status, customerId): a ` +
        `relation's column is named by its key: "customerId".`,
    ],
    [
      'a relation key as a list column, without its Field.relation',
      {
        fields: () => [Field.text('title'), Field.text('label')],
        listColumns: () => ['title', 'customerId'],
      },
      `list column "customerId" is not one of its fields (title, label): to show relation "customer" as a column, ` +
        `list Field.relation("customer") among the fields and name the column by its key, "customerId".`,
    ],
    [
      'a select filter on a date field',
      { filters: () => [RecordFilter.select('issued')] },
      `filter "issued" needs a select field of that name. "issued" is a date field: filter it with ` +
        `RecordFilter.dateRange("issued").`,
    ],
    [
      'a filter on a number field',
      { filters: () => [RecordFilter.select('amount')] },
      `filter "amount" needs a select field of that name. "amount" is a number field, which no filter takes ` +
        '(filters take select, checkbox and date fields and belongsTo relations): a word search finds its words, a ' +
        'sort orders it.',
    ],
    [
      'a select filter on a relation key',
      { filters: () => [RecordFilter.select('customerId')] },
      `filter "customerId" needs a select field of that name. "customerId" is the key of relation "customer": ` +
        'filter it with RecordFilter.relation("customer").',
    ],
    [
      'a relation filter naming the key',
      { filters: () => [RecordFilter.relation('customerId')] },
      `filter "customerId" names no belongsTo relation of it ("customerId" is the key of relation "customer": ` +
        `name the relation, RecordFilter.relation("customer")).`,
    ],
    [
      'a date range filter on no field',
      { filters: () => [RecordFilter.dateRange('due')] },
      `filter "due" needs a date field of that name. It has no field "due".`,
    ],
  ])('%s: says what to write instead', async (_, parts, message) => {
    expect((await refusal(parts)).message).toBe(`Resource "invoices": ${message}`);
  });
});
