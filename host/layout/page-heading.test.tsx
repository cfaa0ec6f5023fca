import '../../testing/host/router-globals';
import { render } from '@testing-library/react';
import { APP_NAME, documentTitle, PageHeading } from './page-heading';

/**
 * The document title follows the page: a page whose heading waits for its data (the list signed in to) must not be
 * left under the previous page's title ("Sign in") while it loads.
 */
it('gives the title back to the application when the page that named it goes, until the next page names it', () => {
  const { rerender } = render(<PageHeading title="Sign in" />);
  expect(document.title).toBe(documentTitle('Sign in'));

  rerender(
    <p role="status" key="loading">
      Loading…
    </p>,
  );
  expect(document.title).toBe(APP_NAME);

  rerender(<PageHeading title="Articles" key="list" />);
  expect(document.title).toBe(documentTitle('Articles'));
});

it('keeps the title of the page that replaces another in the same change', () => {
  const { rerender } = render(<PageHeading title="Sign in" key="sign-in" />);
  rerender(<PageHeading title="Dashboard" key="dashboard" />);
  expect(document.title).toBe(documentTitle('Dashboard'));
});

it('keeps a title that something else set since', () => {
  const { unmount } = render(<PageHeading title="Articles" />);
  document.title = documentTitle('Other');
  unmount();
  expect(document.title).toBe(documentTitle('Other'));
});
