import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { reportCaughtError } from '../../host/core';

/**
 * `render` with the host's `onCaughtError` (as bootstrap.tsx passes it to createRoot), so errors a slot boundary
 * already logged are not logged again by React. Testing Library's type for the option resolves to `undefined` with
 * React 19's optional RootOptions field, hence the cast; the option itself is passed through to createRoot.
 */
export function renderWithSlotBoundaries(ui: ReactNode): RenderResult {
  const options = { onCaughtError: reportCaughtError } as unknown as RenderOptions;
  return render(ui, options);
}
