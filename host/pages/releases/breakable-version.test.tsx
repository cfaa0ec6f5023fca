import { render } from '@testing-library/react';
import { BreakableVersion } from './breakable-version';

describe('BreakableVersion', () => {
  it('offers a break after each separator of a version, its text unchanged', () => {
    const version = '2026.11.29-build.1742+sha.0740d3c4_x';
    const { container } = render(<BreakableVersion version={version} />);
    expect(container.textContent).toBe(version);
    expect(container.innerHTML).toBe('2026.<wbr>11.<wbr>29-<wbr>build.<wbr>1742+<wbr>sha.<wbr>0740d3c4_<wbr>x');
  });

  it('offers none in a version without a separator', () => {
    const { container } = render(<BreakableVersion version="0740d3c4" />);
    expect(container.innerHTML).toBe('0740d3c4');
  });
});
