import { describeAuditState } from './release-history';

it('describes a rollout, with the reason an automatic rollback gives', () => {
  expect(describeAuditState({ active: '1.0.0', canary: { version: '2.0.0', percent: 10, tenants: [] } })).toBe(
    'active 1.0.0, canary 2.0.0 to 10 %',
  );
  expect(describeAuditState({ active: '1.0.0', canary: null, reason: 'canary 2.0.0 failed 30.0 % of 100 loads' })).toBe(
    'active 1.0.0 (canary 2.0.0 failed 30.0 % of 100 loads)',
  );
  expect(describeAuditState(null)).toBe('none');
});
