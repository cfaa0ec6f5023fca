import { renderToStaticMarkup } from 'react-dom/server';
import { Hello } from './Hello';

describe('Hello', () => {
  it('greets the name it is given', () => {
    expect(renderToStaticMarkup(<Hello name="Ada" />)).toBe('<p class="hello">Hello, Ada</p>');
  });
});
