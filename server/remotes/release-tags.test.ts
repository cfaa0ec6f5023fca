import { ReleaseTags } from './release-tags';

const SECRET = 'a-session-secret-of-some-length';

it('reads back the version of a tag it signed for that remote, and nothing else', () => {
  const tags = new ReleaseTags([SECRET]);
  const tag = tags.tag('team_billing', '1.4.0-rc.1');
  expect(tag).toMatch(/^1\.4\.0-rc\.1\.[\w-]{22}$/);
  expect(tags.tag('team_billing', '1.4.0-rc.1')).toBe(tag);
  expect(tags.versionOf('team_billing', tag)).toBe('1.4.0-rc.1');
  // Another remote, another version under the same signature, another server's secret, no signature, not a string.
  expect(tags.versionOf('team_other', tag)).toBeNull();
  expect(tags.versionOf('team_billing', tag.replace('1.4.0-rc.1', '1.3.0'))).toBeNull();
  expect(new ReleaseTags(['another-session-secret-entirely']).versionOf('team_billing', tag)).toBeNull();
  for (const wrong of ['1.4.0', '1.4.0.', '.abc', `1.4.0.${'A'.repeat(21)}`, 42, undefined, 'x'.repeat(201)]) {
    expect(tags.versionOf('team_billing', wrong)).toBeNull();
  }
});

it('accepts the tags of a previous secret during a rotation, and signs with the current one', () => {
  const before = new ReleaseTags(['the-previous-session-secret']);
  const rotated = new ReleaseTags(['the-current-session-secret!', 'the-previous-session-secret']);
  const old = before.tag('team_billing', '2.0.0');
  expect(rotated.versionOf('team_billing', old)).toBe('2.0.0');
  expect(rotated.tag('team_billing', '2.0.0')).not.toBe(old);
  expect(before.versionOf('team_billing', rotated.tag('team_billing', '2.0.0'))).toBeNull();
});
