import '../../../testing/host/router-globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ApiError } from '../../core';
import { PageStatus } from './page-status';

describe('PageStatus', () => {
  it('announces that the page is loading', () => {
    render(<PageStatus status="loading" />, { wrapper: MemoryRouter });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says what failed, and tries again on the page's retry", () => {
    const retry = jest.fn();
    const error = new ApiError(503, 'unavailable', 'The service is temporarily unavailable.');
    render(<PageStatus status="error" error={error} retry={retry} />, { wrapper: MemoryRouter });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Could not load this page');
    expect(alert.textContent).toContain('The service is temporarily unavailable.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offers no retry for what does not exist, only the way back', () => {
    const error = new ApiError(404, 'not_found', 'Not found.');
    render(<PageStatus status="error" error={error} retry={jest.fn()} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Not found');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/');
  });
});
