import { fireEvent, screen } from '@testing-library/react';

/**
 * The browser's "leave this page?" question (`window.confirm`) answered No, and a way to ask it: the header's link to
 * the dashboard, a navigation a page's unsaved-changes guard must stop while something typed is not given. The caller
 * restores `confirm` when its test ends (`confirm.mockRestore()`).
 */
export function refuseLeaving(): { confirm: jest.SpiedFunction<typeof window.confirm>; goToDashboard(): void } {
  const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
  const goToDashboard = () =>
    fireEvent.click(screen.getByRole('navigation', { name: 'Main' }).querySelector('a[href="/"]') as HTMLElement);
  return { confirm, goToDashboard };
}
