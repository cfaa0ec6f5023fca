import { describeAuditState } from './release-history';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';

it('describes a rollout, with the reason an automatic rollback gives', () => {
  expect(describeAuditState({ active: '1.0.0', canary: { version: '2.0.0', percent: 10, tenants: [] } })).toBe(
    'active 1.0.0, canary 2.0.0 to 10 %',
  );
  expect(describeAuditState({ active: '1.0.0', canary: null, reason: 'canary 2.0.0 failed 30.0 % of 100 loads' })).toBe(
    'active 1.0.0 (canary 2.0.0 failed 30.0 % of 100 loads)',
  );
  expect(describeAuditState(null)).toBe('none');
});

it('names the share and the tenants of a canary, the tenants alone when it has no share', () => {
  const canary = (percent: number, tenants: string[], otherTenants = 0) =>
    describeAuditState({ active: null, canary: { version: '4.0.0', percent, tenants, otherTenants } });
  expect(canary(10, ['globex'])).toBe('active none, canary 4.0.0 to 10 % and globex');
  expect(canary(0, ['acme'])).toBe('active none, canary 4.0.0 to acme');
  expect(canary(0, ['acme'], 2)).toBe('active none, canary 4.0.0 to acme, 2 tenants hidden from you');
  expect(canary(0, [])).toBe('active none, canary 4.0.0 to 0 %');
});

it('describes a published release and a team token in words', () => {
  expect(
    describeAuditState({ version: '1.1.0', entry: 'https://cdn.example.com/records/1.1.0/mf-manifest.json' }),
  ).toBe('1.1.0 (https://cdn.example.com/records/1.1.0/mf-manifest.json)');
  expect(describeAuditState({ id: 'tok_7', expiresAt: '2027-01-01T00:00:00.000Z' })).toBe(
    `token tok_7, valid until ${instantInWords('2027-01-01T00:00:00.000Z', readerLocales())}`,
  );
  expect(describeAuditState({ id: 3, expiresAt: null })).toBe('token 3');
});
