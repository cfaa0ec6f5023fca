import { act, fireEvent, render, screen } from '@testing-library/react';
import { CopyLinkAction, recordUrl } from './CopyLinkAction';
import { ExportJsonAction, exportFilename } from './ExportJsonAction';

const record = { id: 12, title: 'Hello', label: 'Greeting', group: 'news' };

describe('CopyLinkAction', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('copies the record view URL to the clipboard', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyLinkAction resource="articles" resourceId={12} record={record} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    });
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/resources/articles/12`);
    expect(screen.getByRole('button').textContent).toBe('Link copied');
    expect(recordUrl('my resource', 3)).toBe(`${window.location.origin}/resources/my%20resource/3`);
  });

  it('shows the link to copy by hand when there is no clipboard', async () => {
    render(<CopyLinkAction resource="articles" resourceId={12} record={record} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    });
    expect((screen.getByLabelText('Record link') as HTMLInputElement).value).toBe(
      `${window.location.origin}/resources/articles/12`,
    );
  });
});

describe('ExportJsonAction', () => {
  it('downloads the record as a JSON file named from the prefix, resource and id', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:record';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });

    render(<ExportJsonAction resource="articles" resourceId={12} record={record} filenamePrefix="acme export" />);
    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(clicked).toEqual(['acme-export-articles-12.json']);
    expect(blobs[0]?.type).toBe('application/json');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0] as Blob);
    });
    expect(JSON.parse(text)).toEqual(record);
    expect(exportFilename(undefined, 'authors', 1)).toBe('export-authors-1.json');
    click.mockRestore();
  });
});
