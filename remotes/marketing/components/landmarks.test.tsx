import { render, screen } from '@testing-library/react';
import { Callout } from './Callout';
import { LoginSidebarPromo } from './LoginSidebarPromo';

describe('the complementary landmarks of team_marketing', () => {
  it('are named, and a callout is a note among them, not a landmark of its own', () => {
    render(
      <>
        <Callout tone="info">Sign in with admin.</Callout>
        <LoginSidebarPromo title="New: editorial calendar" body="Plan articles." linkLabel="" href="" />
      </>,
    );
    expect(screen.getAllByRole('complementary')).toHaveLength(1);
    expect(screen.getByRole('note', { name: 'Information' }).textContent).toContain('Sign in with admin.');
    expect(screen.getByRole('complementary', { name: 'New: editorial calendar' }).textContent).toContain(
      'Plan articles.',
    );
  });
});
